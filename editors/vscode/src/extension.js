'use strict';
// The standards-lint extension: runs `standards-lint server` (the language
// server: diagnostics, quick fixes, hover, navigation) for a workspace that
// holds a `.standards/` folder, and shows where the workflow stands in the
// status bar. No telemetry, no network: everything it shows comes from the
// `standards-lint` executable on this machine.

const fs = require('fs');
const path = require('path');
const vscode = require('vscode');
const { LanguageClient, CloseAction, ErrorAction, RevealOutputChannelOn } = require('vscode-languageclient/node');
const { INSTALL_COMMAND, findExecutable, probeServer, run } = require('./executable');
const { showMarkdown, isOpen } = require('./view');

const MAX_RESTARTS = 3; // crashes within RESTART_WINDOW_MS restarted; the next one is reported
const RESTART_WINDOW_MS = 3 * 60 * 1000;

let output;
let client = null;
let exe = null; // the executable in use
let root = null; // the project folder (holds .standards/)
let statusItem;
let notified = false; // the missing-executable notification is shown once per session
let starting = null;
let statusTimer = null;
let statusRunning = null;
let statusAgain = false;

/** The first workspace folder holding `.standards/`. */
function projectFolder() {
  for (const folder of vscode.workspace.workspaceFolders || []) {
    if (folder.uri.scheme !== 'file') continue;
    try {
      if (fs.statSync(path.join(folder.uri.fsPath, '.standards')).isDirectory()) return folder;
    } catch (_) {
      // not this one
    }
  }
  return null;
}

function settings(folder) {
  return vscode.workspace.getConfiguration('standardsLint', folder ? folder.uri : undefined);
}

/** The settings the server reads, as LSP initialization options. */
function initializationOptions(folder) {
  const cfg = settings(folder);
  const options = {};
  const select = cfg.get('select');
  if (Array.isArray(select)) options.select = select;
  const ignore = cfg.get('ignore');
  if (Array.isArray(ignore) && ignore.length) options.ignore = ignore;
  if (cfg.get('turnEnd') === true) options.turnEnd = true;
  return options;
}

/** One notification per session: standards-lint is missing or cannot run
 * the server. The status bar keeps saying so; its click shows this again. */
function reportMissing(detail, again = false) {
  showStatusText('$(warning) standards-lint: not installed', `${detail}\nInstall: ${INSTALL_COMMAND}`, true);
  if (notified && !again) return;
  notified = true;
  output.appendLine(`${detail} Install: ${INSTALL_COMMAND}`);
  const copy = 'Copy the install command';
  const open = 'Open settings';
  vscode.window.showErrorMessage(
    `standards-lint: ${detail} Install the language server with: ${INSTALL_COMMAND} ` +
    '(into the workspace\'s .venv or the selected Python environment), or set standardsLint.path.',
    copy, open,
  ).then((choice) => {
    if (choice === copy) vscode.env.clipboard.writeText(INSTALL_COMMAND);
    if (choice === open) vscode.commands.executeCommand('workbench.action.openSettings', 'standardsLint.path');
  });
}

async function resolveExecutable(folder) {
  const found = await findExecutable(vscode, folder.uri.fsPath, folder.uri, settings(folder).get('path'));
  if (!found.file) {
    output.appendLine(`standards-lint: PATH as this window sees it: ${process.env.PATH || ''}`);
    reportMissing(found.fromSetting
      ? `the executable named by standardsLint.path was not found (${found.tried.join(', ')}).`
      : `the standards-lint executable was not found (looked in ${found.tried.join(', ')}).`);
    return null;
  }
  output.appendLine(`standards-lint: using ${found.file} (from ${found.from})`);
  const probe = await probeServer(found.file, folder.uri.fsPath);
  if (!probe.ok) {
    reportMissing(`${found.file} cannot run the language server (exit status ${probe.code}` +
      `${probe.message ? `: ${probe.message}` : ''}).`);
    return null;
  }
  return found.file;
}

function errorHandler() {
  const crashes = [];
  return {
    error: () => ({ action: ErrorAction.Continue }),
    closed: () => {
      const now = Date.now();
      crashes.push(now);
      while (crashes.length && now - crashes[0] > RESTART_WINDOW_MS) crashes.shift();
      if (crashes.length <= MAX_RESTARTS) {
        output.appendLine(`standards-lint: the server stopped; restarting (${crashes.length}/${MAX_RESTARTS})`);
        return { action: CloseAction.Restart, handled: true };
      }
      return {
        action: CloseAction.DoNotRestart,
        message: `standards-lint: the language server stopped ${crashes.length} times in 3 minutes and is not ` +
          'restarted. Its log is in the Output panel (standards-lint); "standards-lint: Restart the server" starts it again.',
      };
    },
  };
}

async function startClient() {
  const folder = projectFolder();
  if (!folder) return;
  root = folder.uri.fsPath;
  exe = await resolveExecutable(folder);
  if (!exe) return;
  const serverOptions = { command: exe, args: ['server'], options: { cwd: root } };
  const clientOptions = {
    documentSelector: [{ scheme: 'file', pattern: '**/.standards/**/*.md' }],
    initializationOptions: initializationOptions(folder),
    outputChannel: output,
    revealOutputChannelOn: RevealOutputChannelOn.Never,
    errorHandler: errorHandler(),
    workspaceFolder: folder,
  };
  client = new LanguageClient('standardsLint', 'standards-lint', serverOptions, clientOptions);
  try {
    await client.start();
  } catch (err) {
    output.appendLine(`standards-lint: the server did not start: ${err && err.message || err}`);
    vscode.window.showErrorMessage(`standards-lint: the language server did not start (${err && err.message || err}). ` +
      'See the Output panel (standards-lint).');
  }
  refreshStatus();
}

async function stopClient() {
  const c = client;
  client = null;
  if (c) {
    try {
      await c.stop(5000);
    } catch (_) {
      // already stopped
    }
  }
}

function start() {
  if (!starting) starting = startClient().finally(() => { starting = null; });
  return starting;
}

async function restart() {
  if (starting) await starting;
  await stopClient();
  notified = false;
  await start();
}

// -- the status bar -------------------------------------------------------------
function showStatusText(text, tooltip, warning = false) {
  statusItem.text = text;
  statusItem.tooltip = tooltip;
  statusItem.backgroundColor = warning ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
  statusItem.accessibilityInformation = { label: text.replace(/\$\([a-z-]+\)\s*/g, ''), role: 'button' };
  statusItem.show();
}

/** The status item from `status --format json`: state, owner, what blocks it. */
function describe(status) {
  const errors = (status.problems || []).reduce((n, p) => n + (p.errors || 0), 0);
  const cycle = status.cycle || {};
  const blocks = [];
  if (status.conflicted) blocks.push('merge conflict');
  if (cycle.blocked_on && cycle.blocked_on !== 'NONE') blocks.push(`blocked on ${cycle.blocked_on}`);
  if (errors) blocks.push(`${errors} error${errors === 1 ? '' : 's'}`);
  const icon = blocks.length ? '$(warning)' : '$(pass)';
  const state = status.state || 'no state';
  const owner = status.owner || '?';
  const text = `${icon} ${state} · ${owner}${blocks.length ? ` · ${blocks.join(', ')}` : ''}`;
  const next = status.next || {};
  const tooltip = new vscode.MarkdownString();
  tooltip.appendMarkdown(`**WorkflowState** \`${state}\`, owned by **${owner}**\n\n`);
  tooltip.appendMarkdown(blocks.length ? `Blocked: ${blocks.join(', ')}\n\n` : 'Nothing blocks it.\n\n');
  if (next.reason) tooltip.appendText(`Next (${next.actor || '?'}): ${next.reason}`);
  tooltip.appendMarkdown('\n\n_Click for the full status._');
  return { text, tooltip, label: `standards-lint workflow: ${state}, owner ${owner}${blocks.length ? `, ${blocks.join(', ')}` : ', nothing blocks it'}` };
}

async function refreshStatusNow() {
  if (!exe || !root) return;
  const res = await run(exe, ['status', root, '--format', 'json'], root);
  let status = null;
  try {
    status = JSON.parse(res.stdout);
  } catch (_) {
    status = null;
  }
  if (!status) {
    showStatusText('$(warning) standards-lint: no status', `standards-lint status failed (exit ${res.code}): ${res.stderr.trim()}`, true);
    return;
  }
  const d = describe(status);
  statusItem.text = d.text;
  statusItem.tooltip = d.tooltip;
  statusItem.backgroundColor = undefined;
  statusItem.accessibilityInformation = { label: d.label, role: 'button' };
  statusItem.show();
  if (isOpen('status')) showStatus(false);
}

function refreshStatus() {
  if (statusRunning) {
    statusAgain = true;
    return;
  }
  statusRunning = refreshStatusNow().catch((err) => output.appendLine(`standards-lint: status: ${err}`))
    .finally(() => {
      statusRunning = null;
      if (statusAgain) {
        statusAgain = false;
        refreshStatus();
      }
    });
}

function refreshStatusSoon() {
  clearTimeout(statusTimer);
  statusTimer = setTimeout(refreshStatus, 300);
}

// -- commands -------------------------------------------------------------------
async function ready() {
  if (starting) await starting;
  if (!exe || !root) {
    const folder = projectFolder();
    if (!folder) {
      vscode.window.showWarningMessage('standards-lint: no workspace folder holds a .standards/ folder.');
      return false;
    }
    exe = await resolveExecutable(folder);
    if (!exe) {
      reportMissing('the standards-lint executable is not available.', true);
      return false;
    }
    root = folder.uri.fsPath;
  }
  return true;
}

let context;

async function showStatus(reveal = true) {
  if (!(await ready())) return;
  const res = await run(exe, ['status', root, '--format', 'markdown'], root);
  if (res.code === 2 || !res.stdout.trim()) {
    vscode.window.showErrorMessage(`standards-lint status failed: ${res.stderr.trim() || `exit status ${res.code}`}`);
    return;
  }
  await showMarkdown(vscode, context, 'status', 'standards-lint: status', res.stdout, reveal);
}

async function showHistory() {
  if (!(await ready())) return;
  const res = await run(exe, ['history', root, '--format', 'markdown'], root, 120000);
  if (res.code === 2 || !res.stdout.trim()) {
    vscode.window.showErrorMessage(`standards-lint history failed: ${res.stderr.trim() || `exit status ${res.code}`}`);
    return;
  }
  await showMarkdown(vscode, context, 'history', 'standards-lint: history', res.stdout);
}

async function fixAll() {
  if (!(await ready())) return;
  await vscode.workspace.saveAll(false); // --fix writes the files on disk
  const res = await run(exe, [root, '--fix', '--output-format', 'concise'], root);
  if (res.code === 2) {
    vscode.window.showErrorMessage(`standards-lint --fix failed: ${res.stderr.trim() || res.stdout.trim()}`);
    return;
  }
  const fixed = /^Fixed \d+ findings? in \d+ files?\./m.exec(res.stdout + '\n' + res.stderr);
  const left = /^(Found .*|All checks passed\.)$/m.exec(res.stdout);
  vscode.window.showInformationMessage(`standards-lint: ${fixed ? fixed[0] : 'Fixed 0 findings.'}` +
    `${left ? ` ${left[0]}` : ''}`);
  refreshStatusSoon();
}

// -- activation -------------------------------------------------------------------
async function activate(ctx) {
  context = ctx;
  output = vscode.window.createOutputChannel('standards-lint');
  statusItem = vscode.window.createStatusBarItem('standardsLint.status', vscode.StatusBarAlignment.Left, 0);
  statusItem.name = 'standards-lint';
  statusItem.command = 'standardsLint.showStatus';
  ctx.subscriptions.push(output, statusItem);

  ctx.subscriptions.push(
    vscode.commands.registerCommand('standardsLint.showStatus', () => showStatus(true)),
    vscode.commands.registerCommand('standardsLint.showHistory', showHistory),
    vscode.commands.registerCommand('standardsLint.fixAll', fixAll),
    vscode.commands.registerCommand('standardsLint.restart', restart),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('standardsLint')) restart();
    }),
    vscode.workspace.onDidChangeWorkspaceFolders(() => restart()),
  );

  // The status follows the workflow files on disk, whoever changes them.
  const folder = projectFolder();
  if (folder) {
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, '.standards/**'));
    watcher.onDidChange(refreshStatusSoon);
    watcher.onDidCreate(refreshStatusSoon);
    watcher.onDidDelete(refreshStatusSoon);
    ctx.subscriptions.push(watcher);
  }

  // A new interpreter selected in the Python extension may bring another standards-lint.
  const python = vscode.extensions.getExtension('ms-python.python');
  if (python && !settings(folder).get('path')) {
    python.activate().then((api) => {
      const ev = api && api.environments && api.environments.onDidChangeActiveEnvironmentPath;
      if (ev) ctx.subscriptions.push(ev(() => restart()));
    }, () => undefined);
  }

  await start();
}

async function deactivate() {
  await stopClient();
}

module.exports = { activate, deactivate };
