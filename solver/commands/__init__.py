"""One module per command area; each exposes ``register(app)`` and keeps heavy imports lazy."""
