/**
 * Add or edit a connection. The typed key goes to the services in the request and is never read back; on an
 * edit, leaving the key empty keeps the stored one. Where the OS offers no real secret store the user is
 * warned and may choose not to have the key remembered. A key the service refused (401/403), on Test or on the
 * check Save makes, is saved only after the user says so.
 */
import { useState } from 'react';
import type { ConnectionSummary, Response } from '../../../core/contract';
import { useApi } from '../api/ApiProvider';
import { errorMessage } from '../api/call-errors';

type KeyStorage = Response<'app.info'>['keyStorage'];

interface Props {
  initial?: ConnectionSummary | undefined;
  keyStorage?: KeyStorage | undefined;
  onSaved: (connection: ConnectionSummary, warning?: string) => void;
  onCancel: () => void;
}

interface Outcome {
  ok: boolean;
  message: string;
}

interface Verdict extends Outcome {
  /** The base URL and key the test ran with, so a changed form is tested again. */
  tested: string;
  refused: boolean;
}

const REFUSED = new Set([401, 403]);

export function ConnectionForm({ initial, keyStorage, onSaved, onCancel }: Props) {
  const api = useApi();
  const [name, setName] = useState(initial?.name ?? '');
  const [baseUrl, setBaseUrl] = useState(initial?.baseUrl ?? 'https://api.airtable.com');
  const [apiKey, setApiKey] = useState('');
  const [remember, setRemember] = useState(initial?.remember ?? keyStorage?.persistent ?? true);
  const [outcome, setOutcome] = useState<Outcome>();
  const [busy, setBusy] = useState(false);
  const [testing, setTesting] = useState(false);
  const [verdict, setVerdict] = useState<Verdict>();
  const [confirming, setConfirming] = useState(false);

  const key = apiKey.trim() === '' ? {} : { apiKey: apiKey.trim() };

  const tested = `${baseUrl.trim()}\n${apiKey.trim()}`;

  const run = async (action: () => Promise<Outcome | undefined>) => {
    setBusy(true);
    setConfirming(false);
    setOutcome(undefined);
    try {
      const result = await action();
      if (result) setOutcome(result);
    } catch (e) {
      setOutcome({ ok: false, message: errorMessage(e) });
    } finally {
      setBusy(false);
    }
  };

  const check = async (): Promise<Verdict> => {
    setTesting(true);
    try {
      const r = await api.call('connections.test', {
        ...(initial ? { id: initial.id } : {}),
        baseUrl: baseUrl.trim(),
        ...key,
      });
      const v = {
        ok: r.ok,
        message: r.message,
        tested,
        refused: r.status !== undefined && REFUSED.has(r.status),
      };
      setVerdict(v);
      return v;
    } finally {
      setTesting(false);
    }
  };

  const test = () => run(check);

  const save = (anyway: boolean) =>
    run(async () => {
      if (!anyway) {
        const known = verdict?.tested === tested ? verdict : await check();
        if (known.refused) {
          setConfirming(true);
          return known;
        }
      }
      const r = await api.call('connections.save', {
        ...(initial ? { id: initial.id } : {}),
        name,
        baseUrl: baseUrl.trim(),
        remember,
        ...key,
      });
      setApiKey('');
      onSaved(r.connection, r.warning);
      return undefined;
    });

  return (
    <form
      className="td-connection-form"
      aria-label={initial ? `Edit ${initial.name}` : 'New connection'}
      onSubmit={(e) => {
        e.preventDefault();
        void save(false);
      }}
    >
      <h2>{initial ? `Edit “${initial.name}”` : 'New connection'}</h2>
      <label>
        Name
        <input value={name} onChange={(e) => setName(e.target.value)} required autoFocus />
      </label>
      <label>
        Base URL
        <input value={baseUrl} onChange={(e) => setBaseUrl(e.target.value)} type="url" required />
      </label>
      <label>
        API key
        <input
          type="password"
          autoComplete="off"
          value={apiKey}
          onChange={(e) => setApiKey(e.target.value)}
          placeholder={initial?.hasKey ? 'Stored: leave empty to keep it' : 'Personal access token'}
          required={!initial?.hasKey}
        />
      </label>
      <label className="td-inline">
        <input type="checkbox" checked={remember} onChange={(e) => setRemember(e.target.checked)} />
        Remember the key on this computer
      </label>
      {keyStorage?.warning && <p className="td-warning">{keyStorage.warning}</p>}
      {testing && (
        <p className="td-muted" role="status">
          Testing…
        </p>
      )}
      {confirming && (
        <div className="td-warning" role="alertdialog" aria-label="Refused key">
          <p>The service refused this key. Save anyway?</p>
          <button type="button" onClick={() => void save(true)}>
            Save anyway
          </button>
          <button type="button" onClick={() => setConfirming(false)}>
            Don’t save
          </button>
        </div>
      )}
      {outcome && (
        <p className={outcome.ok ? 'td-ok' : 'td-error'} role={outcome.ok ? 'status' : 'alert'}>
          {outcome.message}
        </p>
      )}
      <div className="td-form-actions">
        <button type="button" onClick={() => void test()} disabled={busy}>
          Test connection
        </button>
        <button type="submit" disabled={busy}>
          Save
        </button>
        <button type="button" onClick={onCancel} disabled={busy}>
          Cancel
        </button>
      </div>
    </form>
  );
}
