@echo off
rem `ask-user` as shipped inside the packaged Ask User Companion (resources\bin\ask-user.cmd). It runs the
rem bundled command line (resources\cli\main\cli.js) with the Node.js on PATH when that is 20 or later,
rem else with the app's own executable in command-line mode (ASK_USER_CLI=1), which needs no Node.js.
setlocal
if not defined ASK_USER_NODE set "ASK_USER_NODE=node"
"%ASK_USER_NODE%" -e "process.exit(Number(process.versions.node.split('.')[0]) >= 20 ? 0 : 1)" >nul 2>nul || goto app
"%ASK_USER_NODE%" "%~dp0..\cli\main\cli.js" %*
exit /b %ERRORLEVEL%
:app
set "ASK_USER_CLI=1"
"%~dp0..\..\Ask User Companion.exe" %*
exit /b %ERRORLEVEL%
