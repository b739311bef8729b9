// Placeholder: replaced by the sha1 peer adapters.
export {};
