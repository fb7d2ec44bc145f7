'use strict';
// Where the `standards-lint` executable is, and whether it can run the
// language server. No network, no shell: files are looked up on disk and
// the executable is started directly.

const cp = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');

const INSTALL_COMMAND = "pip install 'standards-lint[server]'";
const IS_WINDOWS = process.platform === 'win32';
const SCRIPT = IS_WINDOWS ? 'standards-lint.exe' : 'standards-lint';
const BIN = IS_WINDOWS ? 'Scripts' : 'bin';

function isExecutable(file) {
  try {
    if (!fs.statSync(file).isFile()) return false;
    if (!IS_WINDOWS) fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch (_) {
    return false;
  }
}

/** The setting's value as a path: `~` and `${workspaceFolder}` expanded,
 * relative paths taken from the project folder. */
function expandSetting(value, root) {
  let p = value.trim();
  if (p === '') return null;
  p = p.replace(/\$\{workspaceFolder\}/g, root);
  if (p === '~' || p.startsWith('~/')) p = path.join(os.homedir(), p.slice(1));
  // A bare name (no separator) is looked up on PATH, as a shell would.
  if (!p.includes('/') && !p.includes('\\')) return onPath(p);
  return path.resolve(root, p);
}

function onPath(name, env = process.env) {
  const dirs = (env.PATH || env.Path || '').split(path.delimiter).filter(Boolean);
  const exts = IS_WINDOWS ? (env.PATHEXT || '.EXE;.CMD;.BAT').split(';').concat(['']) : [''];
  for (const dir of dirs) {
    for (const ext of exts) {
      const file = path.join(dir, name + ext);
      if (isExecutable(file)) return file;
    }
  }
  return null;
}

/** The script next to the interpreter the Python extension selected for
 * *folderUri*, when that extension is installed (optional). */
async function fromPythonExtension(vscode, folderUri) {
  const ext = vscode.extensions.getExtension('ms-python.python');
  if (!ext) return null;
  try {
    const api = ext.isActive ? ext.exports : await ext.activate();
    let interpreter = null;
    if (api && api.environments && api.environments.getActiveEnvironmentPath) {
      const env = api.environments.getActiveEnvironmentPath(folderUri);
      interpreter = env && env.path;
    } else if (api && api.settings && api.settings.getExecutionDetails) {
      const details = api.settings.getExecutionDetails(folderUri);
      interpreter = details && details.execCommand && details.execCommand[0];
    }
    if (!interpreter) return null;
    const file = path.join(path.dirname(interpreter), SCRIPT);
    return isExecutable(file) ? file : null;
  } catch (_) {
    return null;
  }
}

/**
 * The executable to run, in this order: the `standardsLint.path` setting;
 * the script beside the Python extension's selected interpreter; the
 * project's `.venv` or `venv`; `PATH`.
 * Returns {file, from} or {file: null, tried: [...]}.
 */
async function findExecutable(vscode, root, folderUri, setting) {
  const tried = [];
  if (setting && setting.trim()) {
    const file = expandSetting(setting, root);
    if (file && isExecutable(file)) return { file, from: 'the standardsLint.path setting' };
    return { file: null, tried: [`standardsLint.path (${setting})`], fromSetting: true };
  }
  const python = await fromPythonExtension(vscode, folderUri);
  if (python) return { file: python, from: "the Python extension's interpreter" };
  for (const venv of ['.venv', 'venv']) {
    const file = path.join(root, venv, BIN, SCRIPT);
    if (isExecutable(file)) return { file, from: `${venv}/` };
    tried.push(path.join(venv, BIN, SCRIPT));
  }
  const file = onPath('standards-lint');
  if (file) return { file, from: 'PATH' };
  tried.push('PATH');
  return { file: null, tried };
}

/**
 * Whether *file* runs the language server: `standards-lint server` with
 * stdin at its end exits 0 at once; without the server extra (or on a
 * version without the command) it exits 2 and says why on stderr.
 * Resolves {ok, code, message}.
 */
function probeServer(file, cwd, timeoutMs = 30000) {
  return new Promise((resolve) => {
    let child;
    try {
      child = cp.spawn(file, ['server'], { cwd, stdio: ['ignore', 'ignore', 'pipe'], windowsHide: true });
    } catch (err) {
      resolve({ ok: false, code: null, message: String(err && err.message || err) });
      return;
    }
    let stderr = '';
    const timer = setTimeout(() => { child.kill(); }, timeoutMs);
    child.stderr.on('data', (d) => { if (stderr.length < 4000) stderr += d; });
    child.on('error', (err) => {
      clearTimeout(timer);
      resolve({ ok: false, code: null, message: err.message });
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const message = stderr.trim().split('\n').filter(Boolean).pop() || (signal ? `killed by ${signal}` : '');
      resolve({ ok: code === 0, code, message });
    });
  });
}

/** Run `standards-lint ARGS` and resolve {code, stdout, stderr}. */
function run(file, args, cwd, timeoutMs = 60000) {
  return new Promise((resolve) => {
    cp.execFile(file, args, { cwd, timeout: timeoutMs, maxBuffer: 32 * 1024 * 1024, windowsHide: true,
      env: Object.assign({}, process.env, { NO_COLOR: '1' }) },
    (err, stdout, stderr) => {
      let code = 0;
      if (err) code = typeof err.code === 'number' ? err.code : -1;
      resolve({ code, stdout: String(stdout), stderr: String(stderr || (err && typeof err.code !== 'number' ? err.message : '')) });
    });
  });
}

module.exports = { INSTALL_COMMAND, findExecutable, probeServer, run, onPath };
