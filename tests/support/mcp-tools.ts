/** The tools POST /mcp promises (docs/mcp.md), sorted by name: every MCP test lists the same six. */
export const MCP_TOOL_NAMES = [
  'forecast_accuracy',
  'get_location',
  'get_park_day',
  'get_wait_times',
  'list_parks',
  'when_to_ride',
];
