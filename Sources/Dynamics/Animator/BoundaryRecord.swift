import DynamicsEngine
import Foundation

/// A static boundary body in the animator's world, as seen by contact events.
struct BoundaryRecord {
    /// The collision behaviour that owns it.
    let behavior: CollisionBehavior
    /// The identifier reported to the delegate; nil for the reference-bounds boundary.
    let identifier: AnyHashable?
    let body: BodyID
}
