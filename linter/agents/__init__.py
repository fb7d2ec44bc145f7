"""For agents: the Stop hook (`standards-lint hook`) and the MCP server (`standards-lint mcp`)."""
