"""Dorasure rules, one module per topic; each registers its ops and prompt kinds in flow."""
