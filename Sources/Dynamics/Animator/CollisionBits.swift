import Foundation

/// The collision-filter encoding shared by items and boundaries (64-bit Box2D filter):
/// - bits 0…30: the item is in collision behaviour k with `.items` mode;
/// - bit 31: "is an item";
/// - bits 32…62: the item is in collision behaviour k with `.boundaries` mode (item mask), or the
///   shape is a boundary of behaviour k (boundary category).
///
/// Item: category = item-mode bits | bit 31, mask = item-mode bits | boundary-mode bits.
/// Boundary of k: category = bit(32 + k), mask = bit 31. So two items collide when they share a
/// collision behaviour in `.items` mode, an item meets behaviour k's boundaries when it is in k
/// with `.boundaries` mode, and boundaries never meet each other.
enum CollisionBits {
    /// Collision behaviours one animator can tell apart.
    static let maxBehaviors = 31
    static let item: UInt64 = 1 << 31
    static func itemMode(_ slot: Int) -> UInt64 { 1 << UInt64(slot) }
    static func boundaryMode(_ slot: Int) -> UInt64 { 1 << UInt64(32 + slot) }
}
