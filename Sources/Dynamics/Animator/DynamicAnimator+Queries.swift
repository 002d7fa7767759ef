import DynamicsEngine
import Foundation

/// Where a ray from ``DynamicAnimator/raycast(from:to:)`` or ``DynamicAnimator/raycastAll(from:to:)``
/// meets an item or a boundary.
///
/// Exactly one of three things was hit: an item (``item`` is set), a boundary added with an
/// identifier (``boundaryIdentifier`` is set), or the reference-bounds boundary of
/// ``CollisionBehavior/translatesReferenceBoundsIntoBoundary`` (both are `nil`, as the collision
/// delegate names it with a `nil` identifier).
public struct RaycastHit {
    /// The item hit; `nil` for a boundary. A member of a ``DynamicItemGroup`` is reported as its
    /// group, the item the animator moves (as in ``DynamicAnimator/items(in:)``).
    public var item: (any DynamicItem)?

    /// The identifier of the boundary hit, as ``CollisionBehavior/boundaryIdentifiers`` lists it;
    /// `nil` for an item and for the reference-bounds boundary.
    public var boundaryIdentifier: AnyHashable?

    /// Where the ray meets the surface, in points: `start + fraction · (end − start)`.
    public var point: CGPoint

    /// The surface's normal at ``point``: unit length, pointing out of the item, or, for a
    /// boundary (a line with two sides), toward the side the ray came from. Either way it points
    /// back against the ray.
    public var normal: CGVector

    /// How far along the ray the hit is: 0 at `start`, 1 at `end`.
    public var fraction: CGFloat

    /// Creates a hit (for tests and adapters; the animator makes its own).
    ///
    /// - Parameters:
    ///   - item: The item hit, or `nil` for a boundary.
    ///   - boundaryIdentifier: The boundary's identifier; `nil` for an item or the reference bounds.
    ///   - point: The hit point, in points.
    ///   - normal: The unit surface normal, facing the ray.
    ///   - fraction: The hit's place along the ray, 0…1.
    public init(item: (any DynamicItem)?, boundaryIdentifier: AnyHashable?, point: CGPoint, normal: CGVector, fraction: CGFloat) {
        self.item = item
        self.boundaryIdentifier = boundaryIdentifier
        self.point = point
        self.normal = normal
        self.fraction = fraction
    }
}

extension RaycastHit: CustomStringConvertible {
    /// What was hit, where, and at which fraction, for logs.
    public var description: String {
        let what: String
        if let item { what = itemLabel(item) } else if let id = boundaryIdentifier { what = "boundary \(id)" } else { what = "reference bounds" }
        return "RaycastHit(\(what) at (\(point.x), \(point.y)), normal (\(normal.dx), \(normal.dy)), fraction \(fraction))"
    }
}

// Hit tests and ray casts. They search the engine's query grid (a uniform grid over every shape,
// `DynamicsEngine/Queries`), so each costs about the same with a thousand items or a hundred
// thousand. They see the world as the last step left it — see the Queries article.
extension DynamicAnimator {
    /// The items whose collision shape contains `point`, the last to join first — the order in
    /// which UIKit hit-tests subviews, the front-most first.
    ///
    /// The shape is the one the item collides with, rotation included: its rectangle, its
    /// ellipse (a polygon within 0.5 pt of it, inscribed, see
    /// ``DynamicItemCollisionBoundsType/ellipse``), its path's convex outline, or, for a
    /// ``DynamicItemGroup``, any member's shape (the group is returned, once). A point on the
    /// outline counts as inside. Every item in the animator counts, whether or not a
    /// ``CollisionBehavior`` holds it, as every view can be hit-tested; boundaries are lines and
    /// contain nothing.
    ///
    /// Positions are those of the animator's world: where the last step put the items, or where
    /// ``updateItem(usingCurrentState:)`` re-read them. A `center` you set by hand counts once you
    /// call ``updateItem(usingCurrentState:)`` (as in UIKit, the animator otherwise overwrites it at
    /// the next step). Items added since the last step are included.
    ///
    /// - Parameter point: The point, in the animator's coordinate space (points). A non-finite
    ///   point, or one beyond ±10⁷ pt, is reported as a ``DynamicsDiagnostic`` and gives `[]`.
    /// - Returns: The items, last joined first; `[]` when none.
    public func items(at point: CGPoint) -> [any DynamicItem] {
        guard point.isUsableAnimatorValue else {
            report(.refused("DynamicAnimator.items(at:)", point),
                   "items(at:) needs a finite point within ±10⁷ pt, not (\(point.x), \(point.y)); returning no items.")
            return []
        }
        ensureSynced()
        var found: [ItemRecord] = []
        for shape in world.shapes(containing: Vec2(point)) {
            guard let r = itemRecord(of: shape), !found.contains(where: { $0 === r }) else { continue }
            found.append(r)
        }
        return found.map { ($0, joinRank($0)) }.sorted { $0.1 > $1.1 }.map(\.0.item)
    }

    /// The first item or boundary the segment from `start` to `end` meets: the hit with the
    /// smallest ``RaycastHit/fraction``, or `nil` when it meets nothing.
    ///
    /// As in Box2D, whose ray casts these follow, an item whose shape contains `start` is not hit
    /// (there is no surface between the start and it: ask ``items(at:)`` for what lies under
    /// the start). Boundaries are lines, hit from either side; a ray starting on one hits it at
    /// fraction 0, and a ray running along one does not hit it. Items are hit whether or not a
    /// collision behaviour holds them, and everything is seen where the last step left it, as in
    /// ``items(at:)``. Between two hits at the same fraction, the item that joined last wins, then
    /// items before boundaries.
    ///
    /// - Parameters:
    ///   - start: Where the ray starts, in points.
    ///   - end: Where it ends, in points. The ray is the segment between them: nothing beyond
    ///     `end` is hit.
    /// - Returns: The first hit, or `nil`. A non-finite point, one beyond ±10⁷ pt, or
    ///   `start == end` is reported as a ``DynamicsDiagnostic`` and gives `nil`.
    public func raycast(from start: CGPoint, to end: CGPoint) -> RaycastHit? {
        castRay(from: start, to: end, all: false, caller: "raycast(from:to:)").first
    }

    /// Every item and boundary the segment from `start` to `end` meets, nearest first.
    ///
    /// Each item (a group counting as one) and each boundary appears once, at the point where
    /// the ray first enters it — a ray through a pile lists the pile's items in the order it
    /// meets them. (Box2D's world ray cast reports each shape; here a group's members and a
    /// boundary path's segments are one thing each, as the collision delegate names them.)
    /// Hits at the same fraction are ordered as in ``raycast(from:to:)``; everything else is as
    /// there.
    ///
    /// - Parameters:
    ///   - start: Where the ray starts, in points.
    ///   - end: Where it ends, in points.
    /// - Returns: The hits by increasing ``RaycastHit/fraction``; `[]` when none. Bad input (as
    ///   for ``raycast(from:to:)``) is reported and gives `[]`.
    public func raycastAll(from start: CGPoint, to end: CGPoint) -> [RaycastHit] {
        castRay(from: start, to: end, all: true, caller: "raycastAll(from:to:)")
    }

    // MARK: Internals

    /// The items whose shapes' boxes intersect `rect` (already checked finite and standardised),
    /// in join order: ``items(in:)`` through the query grid. The grid is searched with the
    /// rectangle rounded outward to `Float`; each shape's box is then compared with `rect` as
    /// given, in `CGFloat`.
    func itemsIntersecting(_ r: CGRect) -> [any DynamicItem] {
        let box = AABB(lower: Vec2(Self.floatBelow(r.minX), Self.floatBelow(r.minY)),
                       upper: Vec2(Self.floatAbove(r.maxX), Self.floatAbove(r.maxY)))
        var found: [ItemRecord] = []
        for shape in world.shapes(overlapping: box) {
            let b = world.aabb(shape)
            guard CGFloat(b.lower.x) <= r.maxX, CGFloat(b.upper.x) >= r.minX,
                  CGFloat(b.lower.y) <= r.maxY, CGFloat(b.upper.y) >= r.minY,
                  let record = itemRecord(of: shape), !found.contains(where: { $0 === record }) else { continue }
            found.append(record)
        }
        return found.map { ($0, joinRank($0)) }.sorted { $0.1 < $1.1 }.map(\.0.item)
    }

    /// The largest `Float` at or below `x` (clamped to the finite range).
    static func floatBelow(_ x: CGFloat) -> Float {
        var f = Float(max(min(x, CGFloat(Float.greatestFiniteMagnitude)), -CGFloat(Float.greatestFiniteMagnitude)))
        if CGFloat(f) > x { f = f.nextDown }
        return f
    }

    /// The smallest `Float` at or above `x` (clamped to the finite range).
    static func floatAbove(_ x: CGFloat) -> Float {
        var f = Float(max(min(x, CGFloat(Float.greatestFiniteMagnitude)), -CGFloat(Float.greatestFiniteMagnitude)))
        if CGFloat(f) < x { f = f.nextUp }
        return f
    }

    /// The item record owning an engine shape, or nil for a boundary's shape.
    func itemRecord(of shape: ShapeID) -> ItemRecord? {
        guard case .item(let slot) = world.owner(of: shape) else { return nil }
        return recordSlots[slot]
    }

    /// The record's position in `records`, which are in join order. Cached on the record and
    /// checked, so a query pays a walk over the records only after items left (which shifts the
    /// later ones).
    func joinRank(_ r: ItemRecord) -> Int {
        if r.joinRank >= 0, r.joinRank < records.count, records[r.joinRank] === r { return r.joinRank }
        for (i, record) in records.enumerated() { record.joinRank = i }
        return r.joinRank
    }

    /// The ray cast shared by ``raycast(from:to:)`` (`all` false: the first hit only) and
    /// ``raycastAll(from:to:)``.
    ///
    /// A long ray is clipped, in `Double`, to the box around every shape (grown by twice its
    /// size) before it is rounded to the engine's `Float`: it keeps its precision where the
    /// shapes are, and the engine's fractions are mapped back onto the whole ray.
    private func castRay(from start: CGPoint, to end: CGPoint, all: Bool, caller: String) -> [RaycastHit] {
        guard start.isUsableAnimatorValue, end.isUsableAnimatorValue else {
            report(.refused("DynamicAnimator.\(caller)", isFinite: start.isFiniteAnimatorValue && end.isFiniteAnimatorValue),
                   "\(caller) needs finite points within ±10⁷ pt, not (\(start.x), \(start.y)) → (\(end.x), \(end.y)); returning no hits.")
            return []
        }
        guard start != end else {
            report(.valueOutOfRange(property: "DynamicAnimator.\(caller)"),
                   "\(caller) needs two different points; (\(start.x), \(start.y)) twice is a ray of no length; returning no hits.")
            return []
        }
        ensureSynced()
        guard let bounds = world.queryBounds() else { return [] }
        let dx = Double(end.x - start.x), dy = Double(end.y - start.y)
        // The box grown by twice its size and 100 pt: a ray from nearby is cast as given, a longer
        // one is cut where it can meet nothing, its clipped ends outside every shape.
        let grow = 2 * Double(max(bounds.width, bounds.height)) + 100
        var lo = 0.0, hi = 1.0
        for (p, d, l, u) in [(Double(start.x), dx, Double(bounds.lower.x) - grow, Double(bounds.upper.x) + grow),
                             (Double(start.y), dy, Double(bounds.lower.y) - grow, Double(bounds.upper.y) + grow)] {
            if d == 0 {
                if p < l || p > u { return [] }
            } else {
                let ta = (l - p) / d, tb = (u - p) / d
                lo = max(lo, min(ta, tb)); hi = min(hi, max(ta, tb))
            }
        }
        guard lo <= hi else { return [] }
        let a = Vec2(Float(Double(start.x) + lo * dx), Float(Double(start.y) + lo * dy))
        let b = Vec2(Float(Double(start.x) + hi * dx), Float(Double(start.y) + hi * dy))
        guard a != b else { return [] }
        let shapeHits: [ShapeRayHit]
        if all {
            shapeHits = world.rayCastAll(from: a, to: b)
        } else {
            // every shape at the smallest fraction (almost always one), to order ties as documented
            shapeHits = world.rayCastNearest(from: a, to: b)
        }
        // One hit per item or boundary body: its shapes' hits come nearest first, so the first is kept.
        var hits: [(hit: RaycastHit, order: Int)] = []
        var seenBodies = Set<BodyID>()   // lookup only: the order is the hits'
        for h in shapeHits {
            guard seenBodies.insert(world.body(of: h.shape)).inserted else { continue }
            let f = lo + Double(h.fraction) * (hi - lo)
            let point = CGPoint(x: Double(start.x) + f * dx, y: Double(start.y) + f * dy)
            let normal = CGVector(dx: CGFloat(h.normal.x), dy: CGFloat(h.normal.y))
            // ties: the last joined item first (a higher order), then boundaries (negative order)
            if let r = itemRecord(of: h.shape) {
                hits.append((RaycastHit(item: r.item, boundaryIdentifier: nil, point: point, normal: normal, fraction: CGFloat(f)), joinRank(r)))
            } else if case .boundary(let k) = world.owner(of: h.shape), let boundary = boundaryRecord(slot: k) {
                hits.append((RaycastHit(item: nil, boundaryIdentifier: boundary.identifier, point: point, normal: normal, fraction: CGFloat(f)),
                             -1 - k))
            }
        }
        hits.sort { $0.hit.fraction < $1.hit.fraction || ($0.hit.fraction == $1.hit.fraction && $0.order > $1.order) }
        return all ? hits.map(\.hit) : hits.prefix(1).map(\.hit)
    }

    /// The boundary in `slot`, or nil.
    private func boundaryRecord(slot: Int) -> BoundaryRecord? {
        boundarySlots[slot]
    }
}
