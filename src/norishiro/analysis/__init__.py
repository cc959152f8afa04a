"""Looking at chunks: fragmentation (lint), the chunk-count plan, retrieval evaluation, plots."""
