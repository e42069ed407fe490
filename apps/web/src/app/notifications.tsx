import '@mantine/notifications/styles.css';
import { Notifications as MantineNotifications } from '@mantine/notifications';

/** Short notices after an action went through (issue 18 item 4); dialogs are for questions and errors. */
export default function Notifications() {
  return <MantineNotifications position="top-right" />;
}
