// Placeholder: replaced by the aes peer adapters.
export {};
