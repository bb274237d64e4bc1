@echo off
rem `ask-user` as shipped inside the packaged Ask User Companion (resources\bin\ask-user.cmd). It runs the
rem command line's entry (resources\cli\bin\ask-user.js, the npm install's bin\ask-user.js) with the
rem Node.js on PATH when that is 20 or later, else the app's own executable in command-line mode
rem (ASK_USER_CLI=1), which needs no Node.js. Node's version comes from `node --version` (no JavaScript
rem start-up): "v22.1.0" split at "v" and "." gives 22.
setlocal
if not defined ASK_USER_NODE set "ASK_USER_NODE=node"
set "major="
for /f "tokens=1 delims=v." %%a in ('call "%ASK_USER_NODE%" --version 2^>nul') do if not defined major set "major=%%a"
if not defined major goto app
set /a "major=%major%" 2>nul || goto app
if %major% LSS 20 goto app
"%ASK_USER_NODE%" "%~dp0..\cli\bin\ask-user.js" %*
exit /b %ERRORLEVEL%
:app
set "ASK_USER_CLI=1"
"%~dp0..\..\Ask User Companion.exe" %*
exit /b %ERRORLEVEL%
