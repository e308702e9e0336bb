//! The books: Honor and Prestige, spending, land, titles, allegiance, hostility and ransom (R29–R33).
