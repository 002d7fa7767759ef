import Foundation

/// Hears a collision behaviour's contacts begin and end: UIKit's `UICollisionBehaviorDelegate`.
///
/// All four methods have empty default implementations. They are called after a step, every
/// *began* before every *ended*; changes you make in them take effect at the end of the step.
/// Points are in the animator's coordinate space, in points.
public protocol CollisionBehaviorDelegate: AnyObject {
    /// Two items of `behavior` started touching at `p`.
    func collisionBehavior(_ behavior: CollisionBehavior, beganContactFor item1: any DynamicItem,
                           with item2: any DynamicItem, at p: CGPoint)
    /// Two items of `behavior` stopped touching.
    func collisionBehavior(_ behavior: CollisionBehavior, endedContactFor item1: any DynamicItem,
                           with item2: any DynamicItem)
    /// An item of `behavior` started touching the boundary `identifier` at `p`; `identifier` is
    /// nil for the reference-bounds boundary.
    func collisionBehavior(_ behavior: CollisionBehavior, beganContactFor item: any DynamicItem,
                           withBoundaryIdentifier identifier: AnyHashable?, at p: CGPoint)
    /// An item of `behavior` stopped touching the boundary `identifier` (nil: the reference bounds).
    func collisionBehavior(_ behavior: CollisionBehavior, endedContactFor item: any DynamicItem,
                           withBoundaryIdentifier identifier: AnyHashable?)
}

extension CollisionBehaviorDelegate {
    /// Does nothing.
    public func collisionBehavior(_ behavior: CollisionBehavior, beganContactFor item1: any DynamicItem,
                                  with item2: any DynamicItem, at p: CGPoint) {}
    /// Does nothing.
    public func collisionBehavior(_ behavior: CollisionBehavior, endedContactFor item1: any DynamicItem,
                                  with item2: any DynamicItem) {}
    /// Does nothing.
    public func collisionBehavior(_ behavior: CollisionBehavior, beganContactFor item: any DynamicItem,
                                  withBoundaryIdentifier identifier: AnyHashable?, at p: CGPoint) {}
    /// Does nothing.
    public func collisionBehavior(_ behavior: CollisionBehavior, endedContactFor item: any DynamicItem,
                                  withBoundaryIdentifier identifier: AnyHashable?) {}
}
