// The native message the desktop app shows when another Sandbar (`sandbar serve`, usually) already serves
// its SANDBAR_HOME: a person who clicked the app's icon never reads the log, so the reason is put in front
// of them before the app leaves.
export interface AlreadyRunningDialog {
  type: 'info';
  title: string;
  message: string;
  detail: string;
  buttons: [string];
  noLink: true;
}

export function alreadyRunningDialog(line: string): AlreadyRunningDialog {
  return {
    type: 'info',
    title: 'Sandbar',
    message: 'Sandbar is already running for this home, so the app did not start a second one.',
    detail: line,
    buttons: ['Quit'],
    noLink: true,
  };
}
