// Channel types as the owner reads them on the dashboard and its script-free pages.

import type { ChannelType } from './listener.ts'

const LABELS: Record<ChannelType, string> = {
  WebSocketChannel2023: 'WebSocket',
  StreamingHTTPChannel2023: 'Streaming HTTP',
  WebhookChannel2023: 'Webhook',
  'solid-0.1': 'WebSocket (legacy solid-0.1)',
}

export const channelLabel = (type: ChannelType): string => LABELS[type] ?? type
