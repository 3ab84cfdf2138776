// What a view shows when it has nothing yet: a title, a line of why, and the actions that would change it.
import type { ReactNode } from 'react';

export function EmptyState({ title, children, actions }: { title: string; children?: ReactNode; actions?: ReactNode }) {
  return (
    <div className="empty">
      <h3 className="empty-title">{title}</h3>
      {children && <div className="empty-body">{children}</div>}
      {actions && <div className="empty-actions">{actions}</div>}
    </div>
  );
}
