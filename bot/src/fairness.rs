//! Verifiable dice: a fight's seed is hashed when it starts and published when it ends, so anyone
//! can check that the dice were fixed before the first decision.

use sha2::{Digest, Sha256};

/// The SHA-256 of a seed, in hex: posted when a fight starts.
pub fn seed_hash(seed: &[u8; 32]) -> String {
    hex::encode(Sha256::digest(seed))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hash_is_sha256_of_the_seed_bytes() {
        // SHA-256 of 32 zero bytes.
        assert_eq!(
            seed_hash(&[0; 32]),
            "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925"
        );
    }
}
