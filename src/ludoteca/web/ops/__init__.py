"""Running the club: health checks, Prometheus metrics, structured logs and the
administrators' operator page."""
