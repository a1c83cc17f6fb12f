/**
 * Keeps a component's bug to that component: what fails to draw is replaced by a line saying so, with a way
 * to draw it again, and the bug is reported (last-resort.ts) while the rest of the app stays up.
 */
import { Component } from 'react';
import type { ReactNode } from 'react';
import { reportBug } from './last-resort';

interface Props {
  /** What failed, in the line shown in its place ("This table"). */
  what: string;
  hidden?: boolean | undefined;
  children: ReactNode;
}

export class ErrorBoundary extends Component<Props, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(error: unknown): void {
    reportBug(error);
  }

  override render(): ReactNode {
    if (!this.state.failed) return this.props.children;
    return (
      <p className="td-error td-banner" role="alert" hidden={this.props.hidden}>
        {this.props.what} stopped on an unexpected error.{' '}
        <button type="button" onClick={() => this.setState({ failed: false })}>
          Show it again
        </button>
      </p>
    );
  }
}
