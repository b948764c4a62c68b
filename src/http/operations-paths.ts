/** The paths every server answers before anything else (never cached, never rate-limited). */
export const HEALTH_PATH = '/healthz';
export const READY_PATH = '/readyz';
export const METRICS_PATH = '/metrics';
