/**
 * One titled section of the record form (fields, linked records, attachments, comments): each feature mounts
 * its own component inside one, in RecordDetail's body.
 */
import { useId } from 'react';
import type { ReactNode } from 'react';

export function RecordSection({
  title,
  className,
  children,
}: {
  title: string;
  className?: string;
  children: ReactNode;
}) {
  const id = useId();
  return (
    <section className={`td-record-section${className ? ` ${className}` : ''}`} aria-labelledby={id}>
      <h3 id={id}>{title}</h3>
      {children}
    </section>
  );
}
