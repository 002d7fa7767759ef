import Foundation

/// An object the animator can move: UIKit's `UIDynamicItem`.
///
/// The animator reads `center`, `bounds` (only its size), `transform` (only its rotation) and the
/// collision shape when the item joins the animator, and again on
/// ``DynamicAnimator/updateItem(usingCurrentState:)``. After every step it writes `center` and
/// replaces `transform` by a pure rotation.
///
/// Conform a class of your own (a view, a sprite, a model object) or use ``BasicDynamicItem``.
public protocol DynamicItem: AnyObject {
    /// The item's center in the animator's coordinate space, in points. Written after every step.
    var center: CGPoint { get set }

    /// The item's bounds, in points. Only the size is used: it sets the collision shape and the
    /// mass (mass = density × area / 10 000 pt²). Read when the item joins the animator and on
    /// ``DynamicAnimator/updateItem(usingCurrentState:)``.
    var bounds: CGRect { get }

    /// The item's transform. The animator reads its rotation, `atan2(b, a)` radians, and writes a
    /// pure rotation after every step (any scale or shear is replaced).
    var transform: CGAffineTransform { get set }

    /// The shape used for collisions. Default ``DynamicItemCollisionBoundsType/rectangle``.
    var collisionBoundsType: DynamicItemCollisionBoundsType { get }

    /// The outline used when ``collisionBoundsType`` is ``DynamicItemCollisionBoundsType/path``,
    /// in points relative to the item's center (not rotated). It should be convex and simple;
    /// otherwise its convex hull is used and a diagnostic is reported. Default `nil` (the
    /// rectangle is used, with a diagnostic, when the type is `.path`).
    var collisionBoundingPath: BezierPath? { get }
}

extension DynamicItem {
    /// The default collision shape: ``DynamicItemCollisionBoundsType/rectangle``.
    public var collisionBoundsType: DynamicItemCollisionBoundsType { .rectangle }

    /// The default bounding path: `nil`.
    public var collisionBoundingPath: BezierPath? { nil }
}

/// The collision shape of a ``DynamicItem``: UIKit's `UIDynamicItemCollisionBoundsType`.
public enum DynamicItemCollisionBoundsType: Int, Sendable, Hashable, Codable {
    /// The item's bounds rectangle. The default. Area w·h.
    case rectangle = 0
    /// The ellipse inscribed in the bounds (a circle when width == height). Area π·w·h/4. A
    /// non-circular ellipse is simulated as a polygon whose outline stays within 0.5 pt of it.
    case ellipse = 1
    /// The item's ``DynamicItem/collisionBoundingPath``, flattened to a convex polygon. Area: the
    /// polygon's.
    case path = 2
}
