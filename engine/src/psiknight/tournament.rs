//! Tournaments: Lists pairing and progression, the Melee, the monthly schedule and awards (R34–R39).
