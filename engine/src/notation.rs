//! Dice expressions for `/roll`: parsing and rolling, bounded so no expression can run away.
