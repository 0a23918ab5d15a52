/** The tools POST /mcp promises (docs/mcp.md), sorted by name: every MCP test lists the same seven. */
export const MCP_TOOL_NAMES = [
  'forecast_accuracy',
  'get_location',
  'get_park_day',
  'get_wait_times',
  'list_parks',
  'recent_events',
  'when_to_ride',
];
