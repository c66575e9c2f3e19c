package auth

// Expiry is how long a session lives.
const Expiry = 30
