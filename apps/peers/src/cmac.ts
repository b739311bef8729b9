// Placeholder: replaced by the cmac peer adapters.
export {};
