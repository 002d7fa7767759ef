import Foundation

/// Several items that move as one rigid body: UIKit's `UIDynamicItemGroup`.
///
/// The group is one body with one collision shape per member, each at its offset from the
/// group's center and with its own rotation, so convex members can build a concave outline. The
/// group's mass is the sum of its members' (density × area / 10 000 pt² each); rotational inertia
/// assumes uniform density. Add the group, not its members, to behaviours; the animator writes the
/// group's `center` and `transform` and every member's `center` and `transform` after each step.
///
/// The members are fixed at creation. A member may belong to one group only, a group cannot
/// contain a group, and a member should not also be added to a behaviour on its own: the animator
/// reports each of these with a diagnostic and ignores the offending use.
public final class DynamicItemGroup: DynamicItem {
    /// The members, in the order given.
    public let items: [any DynamicItem]

    /// The group's center, in points: initially the center of the rectangle enclosing the
    /// members' (rotated) bounds.
    public var center: CGPoint

    /// The rectangle enclosing the members' bounds when the group was created, in points, with
    /// origin `.zero`.
    public let bounds: CGRect

    /// The group's transform; initially `.identity`. The animator writes a pure rotation.
    public var transform: CGAffineTransform = .identity

    /// The rotation read back from ``transform``, in radians turning from +x toward +y:
    /// `atan2(b, a)`, in (−π, π].
    public var angle: CGFloat {
        CGFloat(atan2(Double(transform.b), Double(transform.a)))
    }

    /// Creates a group of `items`.
    ///
    /// - Parameter items: The members; their centers, sizes and rotations at this moment fix the
    ///   group's shape. An empty group joins no animator (a diagnostic is reported).
    public init(items: [any DynamicItem]) {
        self.items = items
        var minX = Double.infinity, minY = Double.infinity
        var maxX = -Double.infinity, maxY = -Double.infinity
        for item in items {
            let c = item.center
            let size = item.bounds.size
            let angle = atan2(Double(item.transform.b), Double(item.transform.a))
            let hw = abs(Double(size.width)) / 2, hh = abs(Double(size.height)) / 2
            let cosA = cos(angle.isFinite ? angle : 0), sinA = sin(angle.isFinite ? angle : 0)
            // Half-extents of the rotated rectangle's axis-aligned box.
            let ex = abs(cosA) * hw + abs(sinA) * hh
            let ey = abs(sinA) * hw + abs(cosA) * hh
            let x = Double(c.x), y = Double(c.y)
            // Members too far out (or too large) to measure are left out of the box: the
            // animator reports them when the group joins it.
            guard x.isFinite, y.isFinite, ex.isFinite, ey.isFinite, (x - ex).isFinite, (x + ex).isFinite,
                  (y - ey).isFinite, (y + ey).isFinite else { continue }
            minX = min(minX, x - ex); maxX = max(maxX, x + ex)
            minY = min(minY, y - ey); maxY = max(maxY, y + ey)
        }
        if minX <= maxX, minY <= maxY, (maxX - minX).isFinite, (maxY - minY).isFinite, (minX + maxX).isFinite, (minY + maxY).isFinite {
            center = CGPoint(x: (minX + maxX) / 2, y: (minY + maxY) / 2)
            bounds = CGRect(x: 0, y: 0, width: maxX - minX, height: maxY - minY)
        } else {
            center = .zero
            bounds = .zero
        }
    }
}
