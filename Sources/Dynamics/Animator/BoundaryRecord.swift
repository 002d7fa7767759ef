import DynamicsEngine
import Foundation

/// A static boundary body in the animator's world, as seen by contact events.
struct BoundaryRecord {
    /// The collision behaviour that owns it.
    let behavior: CollisionBehavior
    /// The identifier reported to the delegate; nil for the reference-bounds boundary.
    let identifier: AnyHashable?
    /// The identifier as the delegate's UIKit-spelled methods receive it; nil with `identifier`.
    let object: (any NSCopying)?
    let body: BodyID

    init(behavior: CollisionBehavior, identifier: AnyHashable?, body: BodyID) {
        self.behavior = behavior
        self.identifier = identifier
        self.object = identifier.map(behavior.identifierObject)
        self.body = body
    }
}
