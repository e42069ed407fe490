import { Alert, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { apiErrorMessages, type Translate } from '../../lib/errors';
import { useModalStore } from '../../lib/stores/modal-store';

/** The server's messages for an error ('api_error_code.<code>' texts, STYLE.md §9). */
function useApiMessages() {
  const { i18n } = useTranslation();
  const tRoot: Translate = (key, options) => i18n.t(key, options ?? {});
  return (error: unknown) => apiErrorMessages(error, tRoot);
}

/**
 * A screen's "could not load" line: the server's messages, or `fallback` when it gave none. Renders
 * nothing while `error` is null (pass the query's error only when it failed).
 */
export function ApiErrorText({ error, fallback = '' }: { error: unknown; fallback?: string }) {
  const messagesOf = useApiMessages();
  if (error == null) return null;
  return (
    <Text c="red" role="alert">
      {messagesOf(error).join(' ') || fallback}
    </Text>
  );
}

/** Shows an action's failure in the error modal (the caller decides, STYLE.md §9); no message, no modal. */
export function useErrorModal() {
  const messagesOf = useApiMessages();
  const openModal = useModalStore((s) => s.open);
  return (error: unknown) => {
    const messages = messagesOf(error);
    if (messages.length > 0) openModal({ type: 'error', message: messages.join('\n') });
  };
}

/**
 * The server's refusals of a save that belong to no field, one per line, above a form. Nothing when
 * there are none. `dense` sets them as small text (the administration forms).
 */
export function ServerErrors({
  messages,
  testId,
  dense = false,
}: {
  messages: string[];
  testId: string;
  dense?: boolean;
}) {
  if (messages.length === 0) return null;
  return (
    <Alert color="red" role="alert" data-testid={testId}>
      {messages.map((m) =>
        dense ? (
          <Text key={m} size="sm">
            {m}
          </Text>
        ) : (
          <div key={m}>{m}</div>
        ),
      )}
    </Alert>
  );
}
