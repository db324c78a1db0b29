"""`provost sim` internals: runner (games, batches, local and Ray backends), report, stats, plot."""
