// Short-lived messages in a corner (saved, copied, failed), from the UI store; each closes itself.
import { useEffect } from 'react';
import { useUiStore, type Toast } from '../stores/ui-store.js';

function ToastItem({ toast }: { toast: Toast }) {
  const dismiss = useUiStore((s) => s.toastDismissed);
  useEffect(() => {
    const timer = setTimeout(() => dismiss(toast.id), toast.tone === 'fail' ? 9_000 : 5_000);
    return () => clearTimeout(timer);
  }, [toast.id, toast.tone, dismiss]);
  return (
    <div className={`toast toast-${toast.tone}`} role={toast.tone === 'fail' ? 'alert' : 'status'}>
      <span className="toast-text">{toast.message}</span>
      <button type="button" className="icon-btn" aria-label="Dismiss" onClick={() => dismiss(toast.id)}>
        ×
      </button>
    </div>
  );
}

export function Toasts() {
  const toasts = useUiStore((s) => s.toasts);
  return (
    <div className="toasts" aria-live="polite">
      {toasts.map((t) => (
        <ToastItem key={t.id} toast={t} />
      ))}
    </div>
  );
}
