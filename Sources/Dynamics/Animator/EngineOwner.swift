import DynamicsEngine

/// What owns an engine body or shape, as its `userData` integer says: the one place that integer
/// is written and read.
///
/// The engine knows nothing of items and boundaries; each body and shape carries one `Int` for
/// its user, and the animator stores its slot tables' indices there, so a contact event, a query
/// hit and the write-back find their record in O(1). The encoding is the snapshot format's
/// (`userData` is archived with the world), so it must not change:
///
/// | owner | on | `userData` |
/// |---|---|---|
/// | ``item(slot:)`` | an item's body and its shapes | `slot` (≥ 0) |
/// | ``boundary(slot:)`` | a boundary's shapes | −(`slot` + 1) |
/// | ``ground`` | the anchor body and the boundaries' bodies | −1 |
///
/// `ground` and `boundary(slot: 0)` share −1: a body is never a boundary and a shape never
/// ground, so each is decoded from the kind of id it came from (``init(body:)``, ``init(shape:)``).
enum EngineOwner: Equatable {
    /// The record in `DynamicAnimator.recordSlots[slot]`.
    case item(slot: Int)
    /// The boundary in `DynamicAnimator.boundarySlots[slot]`.
    case boundary(slot: Int)
    /// A static body no record owns: the body that anchors attachments and snaps, and the body
    /// that carries a boundary's shapes (the shapes name the boundary).
    case ground

    /// The integer stored in `BodyDef.userData` or `ShapeDef.userData`.
    var userData: Int {
        switch self {
        case .item(let slot): slot
        case .boundary(let slot): -(slot + 1)
        case .ground: -1
        }
    }

    /// The owner of a body whose `userData` is `userData`.
    init(body userData: Int) {
        self = userData >= 0 ? .item(slot: userData) : .ground
    }

    /// The owner of a shape whose `userData` is `userData`.
    init(shape userData: Int) {
        self = userData >= 0 ? .item(slot: userData) : .boundary(slot: -userData - 1)
    }

    /// The item slot, or nil for a boundary or the ground.
    var itemSlot: Int? {
        if case .item(let slot) = self { slot } else { nil }
    }
}

extension World {
    /// The owner of `body`, from its `userData` (an invalid id reads 0, as `userData(_:)` does).
    func owner(of body: BodyID) -> EngineOwner { EngineOwner(body: userData(body)) }

    /// The owner of `shape`, from its `userData` (an invalid id reads 0, as `userData(_:)` does).
    func owner(of shape: ShapeID) -> EngineOwner { EngineOwner(shape: userData(shape)) }
}
