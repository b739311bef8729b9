// Placeholder: replaced by the esp peer adapters.
export {};
