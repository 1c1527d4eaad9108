// A short notice in the corner of the console that goes away by itself (Shoelace's alert toast):
// what was just saved or changed.
export function toast(message: string): void {
  const alert = Object.assign(document.createElement('sl-alert'), { variant: 'success', closable: true, duration: 5000 });
  alert.innerHTML = '<sl-icon slot="icon" name="check2-circle"></sl-icon>';
  alert.append(message);
  document.body.append(alert);
  void (alert as unknown as { toast(): Promise<void> }).toast();
}
