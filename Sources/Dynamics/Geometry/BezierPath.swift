import Foundation

/// A path of straight lines and Bézier curves: UIKit's `UIBezierPath`, a reference type.
///
/// As in UIKit, a path is an object that is built up in place, so the usual UIKit code ports as
/// written:
///
/// ```swift
/// let path = BezierPath()
/// path.move(to: CGPoint(x: 0, y: 300))
/// path.addLine(to: CGPoint(x: 200, y: 340))
/// let shifted = path.copy() as! BezierPath      // UIBezierPath is NSCopying: an independent path
/// shifted.apply(CGAffineTransform(translationX: 0, y: 100))
/// ```
///
/// Coordinates are in points, y grows downward and angles are in radians turning from +x toward
/// +y, exactly as in UIKit. Only geometry is kept (no line width or dash): the path is used for
/// collision boundaries and item bounding paths, not for drawing.
///
/// ## Paths the animator is given
/// The library never keeps a path you hand it: it takes a copy at the moment UIKit reads the
/// path, so changing your path later changes nothing in the world until you hand it over again.
/// ``CollisionBehavior/addBoundary(withIdentifier:for:)-(AnyHashable,_)`` copies (and flattens)
/// the path when it is added, as UIKit builds the boundary's body from the path at the add, and
/// ``CollisionBehavior/boundary(withIdentifier:)-(AnyHashable)`` answers a new path each call, as
/// UIKit does (measured on UIKitCore through Mac Catalyst and read in the iOS 7.0 disassembly by
/// the charon project: <https://github.com/kern0x1b/charon/blob/0df70b9349b477f8a8d9e9152f160a0b202e1204/packages/a/apple-backports/facts/UIKit/UIDynamicAnimator.md>,
/// §7.4). An item's ``DynamicItem/collisionBoundingPath`` is read, and copied, when the item joins
/// the animator and on ``DynamicAnimator/updateItem(usingCurrentState:)``, the two moments UIKit
/// reads an item's shape (same source, §2.2 and §2.9).
///
/// A path is a mutable object and so is not `Sendable`: build it where it is used, or hand a
/// ``copy()`` (or its `Codable` form) to another isolation domain.
///
/// ## Elements
/// A path is a list of ``elements``. Every subpath starts with ``Element/move(to:)``; drawing
/// calls made when there is no current point are ignored (UIKit logs "no current point" and does
/// the same), and drawing after ``close()`` first re-opens a subpath at the closed subpath's start
/// (CoreGraphics inserts the same implicit move). The elements therefore always describe a
/// well-formed path, also after decoding. Two paths are equal (`==`, `isEqual(_:)`) when their
/// elements and fill rule are equal; `===` tells the objects apart.
///
/// Curves are turned into line segments when the path is used (`contains(_:)`, collisions).
/// Circular arcs and ovals are stored, as UIKit stores them, as cubic Béziers of at most a quarter
/// turn each; that representation deviates from the true circle by at most 0.027 % of the radius
/// (0.27 pt for a 2000 pt wide oval), always outward.
open class BezierPath: NSObject, NSCopying, Codable {
    /// One drawing command of a ``BezierPath`` (CoreGraphics' `CGPathElement`), in points.
    public enum Element: Sendable, Equatable {
        /// Starts a new subpath at the point.
        case move(to: CGPoint)
        /// A straight line from the current point to the point.
        case line(to: CGPoint)
        /// A quadratic Bézier curve from the current point to `to`, bent toward `control`.
        case quadCurve(to: CGPoint, control: CGPoint)
        /// A cubic Bézier curve from the current point to `to` with two control points.
        case curve(to: CGPoint, control1: CGPoint, control2: CGPoint)
        /// A straight line back to the start of the current subpath, which it closes.
        case close
    }

    /// The drawing commands, in order; empty by default. Read-only: build paths with the drawing
    /// methods.
    public private(set) var elements: [Element] = []

    /// Whether `contains(_:)` uses the even-odd rule instead of the non-zero winding rule.
    /// Default `false` (non-zero), as in UIKit.
    public var usesEvenOddFillRule: Bool = false

    // MARK: Creating paths

    /// Creates an empty path, with no elements and no current point. Required, so that
    /// ``copy(with:)`` makes an object of the receiver's own class, as Objective-C's
    /// `[[self class] new]` does.
    public required override init() {
        super.init()
    }

    /// Creates a closed rectangular subpath: it starts at `rect.origin` and runs along the
    /// width first (clockwise on a y-down screen for a positive size), like UIKit.
    /// A null or non-finite rectangle gives an empty path.
    public convenience init(rect: CGRect) {
        self.init()
        addRectangle(rect)
    }

    /// Creates a closed ellipse inscribed in `rect`, in points: four cubic Béziers starting at
    /// the rightmost point `(maxX, midY)` and running clockwise on a y-down screen, like UIKit.
    /// A null or non-finite rectangle gives an empty path.
    public convenience init(ovalIn rect: CGRect) {
        self.init()
        guard !rect.isNull, Self.isFinite(rect) else { return }
        let r = rect.standardized
        let k = Self.quarterCircleHandle
        let cx = Double(r.midX), cy = Double(r.midY)
        let rx = Double(r.width) / 2, ry = Double(r.height) / 2
        func p(_ x: Double, _ y: Double) -> CGPoint { CGPoint(x: x, y: y) }
        move(to: p(cx + rx, cy))
        addCurve(to: p(cx, cy + ry), controlPoint1: p(cx + rx, cy + k * ry), controlPoint2: p(cx + k * rx, cy + ry))
        addCurve(to: p(cx - rx, cy), controlPoint1: p(cx - k * rx, cy + ry), controlPoint2: p(cx - rx, cy + k * ry))
        addCurve(to: p(cx, cy - ry), controlPoint1: p(cx - rx, cy - k * ry), controlPoint2: p(cx - k * rx, cy - ry))
        addCurve(to: p(cx + rx, cy), controlPoint1: p(cx + k * rx, cy - ry), controlPoint2: p(cx + rx, cy - k * ry))
        close()
    }

    /// Creates a closed rounded rectangle, in points, with circular corners of `cornerRadius`
    /// points, clamped to `0...min(width, height) / 2` (a non-finite radius counts as 0).
    /// It starts at the end of the top-left corner and runs clockwise on a y-down screen.
    ///
    /// UIKit draws "continuous" (superellipse-like) corners; this path uses circular arcs, which
    /// differ from UIKit's by well under a point for typical radii.
    public convenience init(roundedRect rect: CGRect, cornerRadius: CGFloat) {
        self.init()
        guard !rect.isNull, Self.isFinite(rect) else { return }
        let r = rect.standardized
        let limit = Double(Swift.min(r.width, r.height)) / 2
        let radius = cornerRadius.isFinite ? Swift.min(Swift.max(Double(cornerRadius), 0), limit) : 0
        guard radius > 0 else {
            addRectangle(r)
            return
        }
        let minX = Double(r.minX), minY = Double(r.minY), maxX = Double(r.maxX), maxY = Double(r.maxY)
        let quarter = Double.pi / 2
        move(to: CGPoint(x: minX + radius, y: minY))
        addArc(withCenter: CGPoint(x: maxX - radius, y: minY + radius), radius: CGFloat(radius),
               startAngle: CGFloat(-quarter), endAngle: 0, clockwise: true)
        addArc(withCenter: CGPoint(x: maxX - radius, y: maxY - radius), radius: CGFloat(radius),
               startAngle: 0, endAngle: CGFloat(quarter), clockwise: true)
        addArc(withCenter: CGPoint(x: minX + radius, y: maxY - radius), radius: CGFloat(radius),
               startAngle: CGFloat(quarter), endAngle: CGFloat(2 * quarter), clockwise: true)
        addArc(withCenter: CGPoint(x: minX + radius, y: minY + radius), radius: CGFloat(radius),
               startAngle: CGFloat(2 * quarter), endAngle: CGFloat(3 * quarter), clockwise: true)
        close()
    }

    /// Creates an open circular arc, in points and radians, exactly like UIKit's initializer of
    /// the same name: see ``addArc(withCenter:radius:startAngle:endAngle:clockwise:)``.
    public convenience init(arcCenter center: CGPoint, radius: CGFloat, startAngle: CGFloat, endAngle: CGFloat,
                            clockwise: Bool) {
        self.init()
        addArc(withCenter: center, radius: radius, startAngle: startAngle, endAngle: endAngle,
               clockwise: clockwise)
    }

    // MARK: Copying and comparing

    /// An independent path with the same elements and fill rule, of the receiver's class:
    /// `NSCopying`, as `UIBezierPath`. UIKit code writes `path.copy() as! BezierPath`
    /// (`copy()` is `NSObject`'s, which calls this method); changing either path afterwards
    /// leaves the other as it was. A subclass with state of its own overrides it.
    ///
    /// - Parameter zone: Ignored, as on every modern Apple platform; default `nil`.
    /// - Returns: The new path, typed `Any` as `NSCopying` requires.
    open func copy(with zone: NSZone? = nil) -> Any {
        let result = type(of: self).init()
        result.elements = elements
        result.usesEvenOddFillRule = usesEvenOddFillRule
        return result
    }

    /// A new path of class `BezierPath` equal to this one: the library's own copy of a path it
    /// was handed (nothing a subclass overrides runs, so no caller code runs either).
    func snapshotCopy() -> BezierPath {
        let result = BezierPath()
        result.elements = elements
        result.usesEvenOddFillRule = usesEvenOddFillRule
        return result
    }

    /// Whether `object` is a ``BezierPath`` with the same ``elements`` and
    /// ``usesEvenOddFillRule``: value equality, which `==` uses too.
    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? BezierPath else { return false }
        if other === self { return true }
        return other.usesEvenOddFillRule == usesEvenOddFillRule && other.elements == elements
    }

    /// A hash of the ``elements`` and fill rule, consistent with ``isEqual(_:)``.
    open override var hash: Int {
        var hasher = Hasher()
        hasher.combine(usesEvenOddFillRule)
        hasher.combine(elements.count)
        for element in elements {
            switch element {
            case .move(let p): hasher.combine(0); hasher.combine(p)
            case .line(let p): hasher.combine(1); hasher.combine(p)
            case .quadCurve(let p, let c): hasher.combine(2); hasher.combine(p); hasher.combine(c)
            case .curve(let p, let c1, let c2): hasher.combine(3); hasher.combine(p); hasher.combine(c1); hasher.combine(c2)
            case .close: hasher.combine(4)
            }
        }
        return hasher.finalize()
    }

    /// The elements in UIKit's style, for logs: `<BezierPath; <MoveTo {0, 0}>, <LineTo {10, 0}>, <Close>>`.
    open override var description: String {
        func text(_ p: CGPoint) -> String { "{\(p.x), \(p.y)}" }
        let parts = elements.map { element -> String in
            switch element {
            case .move(let p): return "<MoveTo \(text(p))>"
            case .line(let p): return "<LineTo \(text(p))>"
            case .quadCurve(let p, let c): return "<QuadCurveTo \(text(p)) - \(text(c))>"
            case .curve(let p, let c1, let c2): return "<CurveTo \(text(p)) \(text(c1)) \(text(c2))>"
            case .close: return "<Close>"
            }
        }
        return parts.isEmpty ? "<BezierPath; empty>" : "<BezierPath; " + parts.joined(separator: ", ") + ">"
    }

    // MARK: Coding

    /// Decodes a path, replaying its elements through the building methods so that a malformed
    /// archive still yields a well-formed path (stray drawing without a current point is dropped).
    /// The form is `{"elements": [...], "usesEvenOddFillRule": false}`, the same as when the path
    /// was a value type, so archives written then still decode.
    public required init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let decoded = try container.decode([Element].self, forKey: .elements)
        let evenOdd = try container.decodeIfPresent(Bool.self, forKey: .usesEvenOddFillRule) ?? false
        super.init()
        usesEvenOddFillRule = evenOdd
        for element in decoded { append(element) }
    }

    /// Encodes the elements and the fill rule.
    open func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(elements, forKey: .elements)
        try container.encode(usesEvenOddFillRule, forKey: .usesEvenOddFillRule)
    }

    // MARK: Building paths

    /// Whether the path has no elements at all (a lone `move(to:)` makes it non-empty, as in UIKit).
    public var isEmpty: Bool { elements.isEmpty }

    /// The point where the next segment starts, in points; `.zero` for an empty path (as UIKit).
    /// After `close()` it is the start of the closed subpath.
    public var currentPoint: CGPoint {
        guard let last = elements.last else { return .zero }
        switch last {
        case .move(let p), .line(let p), .quadCurve(let p, _), .curve(let p, _, _): return p
        case .close: return subpathStart ?? .zero
        }
    }

    /// Starts a new subpath at `point` (points).
    public func move(to point: CGPoint) {
        elements.append(.move(to: point))
    }

    /// Adds a straight line from the current point to `point` (points).
    /// Ignored when the path has no current point, as in UIKit.
    public func addLine(to point: CGPoint) {
        guard prepareToDraw() else { return }
        elements.append(.line(to: point))
    }

    /// Adds a quadratic Bézier curve from the current point to `endPoint`, bent toward
    /// `controlPoint` (points). Ignored when the path has no current point.
    public func addQuadCurve(to endPoint: CGPoint, controlPoint: CGPoint) {
        guard prepareToDraw() else { return }
        elements.append(.quadCurve(to: endPoint, control: controlPoint))
    }

    /// Adds a cubic Bézier curve from the current point to `endPoint` with two control points
    /// (points). Ignored when the path has no current point.
    public func addCurve(to endPoint: CGPoint, controlPoint1: CGPoint, controlPoint2: CGPoint) {
        guard prepareToDraw() else { return }
        elements.append(.curve(to: endPoint, control1: controlPoint1, control2: controlPoint2))
    }

    /// Closes the current subpath with a straight line back to its start.
    /// Ignored when there is no current point or the subpath is already closed.
    public func close() {
        guard let last = elements.last, last != .close else { return }
        elements.append(.close)
    }

    /// Adds a circular arc, in points and radians, as UIKit does.
    ///
    /// Angles turn from +x toward +y, so on a y-down screen `clockwise == true` sweeps with
    /// *increasing* angle from `startAngle` until it reaches `endAngle` (modulo 2π), and `false`
    /// sweeps with decreasing angle. A sweep of 2π or more in the requested direction draws one
    /// full circle; equal angles, or e.g. `0 → 2π` counter-clockwise, draw nothing but the start
    /// point. If the current subpath is open, a line joins its current point to the arc's start;
    /// otherwise (an empty path, or right after `close()`) the arc starts a new subpath.
    /// Non-finite arguments leave the path unchanged. A negative radius is used as given (the arc
    /// then starts on the opposite side of the centre), as CoreGraphics does.
    public func addArc(withCenter center: CGPoint, radius: CGFloat, startAngle: CGFloat,
                                endAngle: CGFloat, clockwise: Bool) {
        let cx = Double(center.x), cy = Double(center.y), r = Double(radius)
        let start = Double(startAngle), end = Double(endAngle)
        guard cx.isFinite, cy.isFinite, r.isFinite, start.isFinite, end.isFinite else { return }
        let twoPi = 2 * Double.pi
        var sweep = end - start
        if clockwise {
            if sweep < 0 {
                sweep = sweep.truncatingRemainder(dividingBy: twoPi)
                if sweep < 0 { sweep += twoPi }
            }
            sweep = Swift.min(sweep, twoPi)
        } else {
            if sweep > 0 {
                sweep = sweep.truncatingRemainder(dividingBy: twoPi)
                if sweep > 0 { sweep -= twoPi }
            }
            sweep = Swift.max(sweep, -twoPi)
        }
        func point(_ angle: Double) -> CGPoint { CGPoint(x: cx + r * cos(angle), y: cy + r * sin(angle)) }
        let first = point(start)
        if elements.isEmpty || elements.last == .close {
            move(to: first)
        } else if currentPoint != first {
            addLine(to: first)
        }
        guard sweep != 0 else { return }
        let pieces = Swift.max(1, Int((abs(sweep) / (Double.pi / 2)).rounded(.up)))
        let step = sweep / Double(pieces)
        let handle = 4.0 / 3.0 * tan(step / 4) * r
        for index in 0..<pieces {
            let a0 = start + step * Double(index)
            let a1 = index == pieces - 1 ? start + sweep : a0 + step
            let p3 = point(a1)
            let c1 = CGPoint(x: cx + r * cos(a0) - handle * sin(a0), y: cy + r * sin(a0) + handle * cos(a0))
            let c2 = CGPoint(x: Double(p3.x) + handle * sin(a1), y: Double(p3.y) - handle * cos(a1))
            addCurve(to: p3, controlPoint1: c1, controlPoint2: c2)
        }
    }

    /// Appends every element of `other` (its first element should be a move; if not, its
    /// drawing starts from this path's current point).
    public func append(_ other: BezierPath) {
        for element in other.elements { append(element) }
    }

    /// Removes every element, leaving an empty path.
    public func removeAllPoints() {
        elements.removeAll()
    }

    /// Transforms every point of the path, in place, by `transform`. Affine maps carry Bézier
    /// curves to Bézier curves exactly, so nothing is approximated.
    public func apply(_ transform: CGAffineTransform) {
        elements = Self.transformed(elements, by: transform)
    }

    /// Returns a new path (of the receiver's class) with every point transformed by `transform`;
    /// the receiver is unchanged (see ``apply(_:)``).
    public func applying(_ transform: CGAffineTransform) -> BezierPath {
        let result = type(of: self).init()
        result.usesEvenOddFillRule = usesEvenOddFillRule
        result.elements = Self.transformed(elements, by: transform)
        return result
    }

    private static func transformed(_ elements: [Element], by transform: CGAffineTransform) -> [Element] {
        elements.map { element in
            switch element {
            case .move(let p): return .move(to: p.applying(transform))
            case .line(let p): return .line(to: p.applying(transform))
            case .quadCurve(let p, let c): return .quadCurve(to: p.applying(transform), control: c.applying(transform))
            case .curve(let p, let c1, let c2):
                return .curve(to: p.applying(transform), control1: c1.applying(transform),
                              control2: c2.applying(transform))
            case .close: return .close
            }
        }
    }

    /// Returns the same outline drawn in the opposite direction, subpath by subpath
    /// (UIKit's `reversing()`), as a new path of the receiver's class; the receiver is unchanged.
    /// Closed subpaths stay closed.
    public func reversing() -> BezierPath {
        let result = type(of: self).init()
        result.usesEvenOddFillRule = usesEvenOddFillRule
        var subpath: [Element] = []
        var reversedSubpaths: [[Element]] = []
        func flush() {
            guard let first = subpath.first, case .move(let start) = first else {
                subpath.removeAll()
                return
            }
            let closed = subpath.last == .close
            var out: [Element] = []
            var ends: [CGPoint] = [start]
            for element in subpath.dropFirst() {
                switch element {
                case .line(let p), .quadCurve(let p, _), .curve(let p, _, _): ends.append(p)
                default: break
                }
            }
            out.append(.move(to: ends.last ?? start))
            var index = ends.count - 1
            for element in subpath.dropFirst().reversed() {
                switch element {
                case .line: out.append(.line(to: ends[index - 1]))
                case .quadCurve(_, let c): out.append(.quadCurve(to: ends[index - 1], control: c))
                case .curve(_, let c1, let c2): out.append(.curve(to: ends[index - 1], control1: c2, control2: c1))
                default: continue
                }
                index -= 1
            }
            if closed { out.append(.close) }
            reversedSubpaths.append(out)
            subpath.removeAll()
        }
        for element in elements {
            if case .move = element { flush() }
            subpath.append(element)
        }
        flush()
        for sub in reversedSubpaths { for element in sub { result.append(element) } }
        return result
    }

    // MARK: Measuring

    /// The smallest rectangle enclosing every point of the path, in points: the curves
    /// themselves (not their control points) plus every `move(to:)` point.
    ///
    /// UIKit's `bounds` also encloses the control points; the two agree for rectangles, ovals and
    /// rounded rectangles. An empty path (or one whose points are all non-finite) returns
    /// `CGRect.null`, as UIKit does; test it with `isNull`. Elements with a non-finite point are
    /// skipped (and a move to one leaves no current point until the next good move), exactly as
    /// when the path is flattened for collisions.
    public var bounds: CGRect {
        // Visits exactly what `flattened` visits, so the two never disagree about bad points.
        var box = BoundingBox()
        var current: CGPoint?
        var start: CGPoint?
        for element in elements {
            switch element {
            case .move(let p):
                current = Self.isFinite(p) ? p : nil
                start = current
                if let p = current { box.add(p) }
            case .line(let p):
                guard current != nil, Self.isFinite(p) else { continue }
                box.add(p)
                current = p
            case .quadCurve(let p, let c):
                guard let p0 = current, Self.isFinite(p), Self.isFinite(c) else { continue }
                box.addQuadExtrema(p0, c, p)
                box.add(p)
                current = p
            case .curve(let p, let c1, let c2):
                guard let p0 = current, Self.isFinite(p), Self.isFinite(c1), Self.isFinite(c2) else { continue }
                box.addCubicExtrema(p0, c1, c2, p)
                box.add(p)
                current = p
            case .close:
                current = start
            }
        }
        return box.rect
    }

    /// Whether `point` (points) is inside the area the path encloses, by the non-zero winding
    /// rule (or even-odd if ``usesEvenOddFillRule``), as UIKit's `contains(_:)`.
    ///
    /// Open subpaths count as implicitly closed, as when filling. Curves are flattened to within
    /// 0.1 pt, and a point exactly on the outline may be reported either way. A non-finite point
    /// is never contained.
    public func contains(_ point: CGPoint) -> Bool {
        guard point.x.isFinite, point.y.isFinite else { return false }
        var winding = 0
        for polyline in flattened(tolerance: Self.containsTolerance) {
            winding += PolygonTools.windingNumber(of: point, in: polyline.points)
        }
        return usesEvenOddFillRule ? winding % 2 != 0 : winding != 0
    }

    // MARK: Flattening (internal)

    /// The subpaths as polylines whose segments deviate from the true curves by at most
    /// `tolerance` points (a non-positive or non-finite tolerance means 0.5 pt; below 0.001 pt it
    /// is raised to 0.001 pt). Each Bézier is split uniformly into the fewest pieces that the
    /// bound `max distance ≤ max|B''| / (8 n²)` allows, at most 4096 per curve, so the result is
    /// deterministic and the tolerance is guaranteed, not estimated.
    ///
    /// Subpaths that draw nothing (a lone move, or points that coincide) are dropped, and elements
    /// with non-finite points are skipped. See ``Polyline`` for the guarantees on each result.
    /// Whether any element has a non-finite point (flattening skips such elements).
    var hasNonFinitePoints: Bool {
        elements.contains { element in
            switch element {
            case .move(let p), .line(let p): return !Self.isFinite(p)
            case .quadCurve(let p, let c): return !Self.isFinite(p) || !Self.isFinite(c)
            case .curve(let p, let c1, let c2): return !Self.isFinite(p) || !Self.isFinite(c1) || !Self.isFinite(c2)
            case .close: return false
            }
        }
    }

    func flattened(tolerance: CGFloat = 0.5) -> [Polyline] {
        var tol = Double(tolerance)
        if !(tol > 0) || !tol.isFinite { tol = 0.5 }
        tol = Swift.max(tol, 0.001)

        var result: [Polyline] = []
        var points: [CGPoint] = []
        var current: CGPoint?
        var start: CGPoint?

        func finish(closed: Bool) {
            if closed, points.count > 1, points.last == points.first { points.removeLast() }
            if points.count >= 2 { result.append(Polyline(points: points, isClosed: closed)) }
            points.removeAll(keepingCapacity: true)
        }
        func emit(_ p: CGPoint) {
            // Finite control points can still overflow when blended (coordinates near 1e308).
            if Self.isFinite(p), points.last != p { points.append(p) }
        }

        for element in elements {
            switch element {
            case .move(let p):
                finish(closed: false)
                if Self.isFinite(p) {
                    current = p
                    start = p
                    points.append(p)
                } else {
                    current = nil
                    start = nil
                }
            case .line(let p):
                guard current != nil, Self.isFinite(p) else { continue }
                emit(p)
                current = p
            case .quadCurve(let p, let c):
                guard let p0 = current, Self.isFinite(p), Self.isFinite(c) else { continue }
                let pieces = Self.pieces(secondDifference: Self.norm(p0, c, p), scale: 0.25, tolerance: tol)
                for i in 1..<pieces { emit(Self.quadPoint(p0, c, p, Double(i) / Double(pieces))) }
                emit(p)
                current = p
            case .curve(let p, let c1, let c2):
                guard let p0 = current, Self.isFinite(p), Self.isFinite(c1), Self.isFinite(c2) else { continue }
                let m = Swift.max(Self.norm(p0, c1, c2), Self.norm(c1, c2, p))
                let pieces = Self.pieces(secondDifference: m, scale: 0.75, tolerance: tol)
                for i in 1..<pieces { emit(Self.cubicPoint(p0, c1, c2, p, Double(i) / Double(pieces))) }
                emit(p)
                current = p
            case .close:
                guard current != nil else { continue }
                finish(closed: true)
                current = start
                if let s = start { points.append(s) }
            }
        }
        finish(closed: false)
        return result
    }

    // MARK: Private helpers

    /// Appends the closed rectangle subpath of ``init(rect:)``; nothing for a null or non-finite one.
    private func addRectangle(_ rect: CGRect) {
        guard !rect.isNull, Self.isFinite(rect) else { return }
        let x0 = rect.origin.x, y0 = rect.origin.y
        let x1 = x0 + rect.size.width, y1 = y0 + rect.size.height
        move(to: CGPoint(x: x0, y: y0))
        addLine(to: CGPoint(x: x1, y: y0))
        addLine(to: CGPoint(x: x1, y: y1))
        addLine(to: CGPoint(x: x0, y: y1))
        close()
    }

    /// k such that a cubic with handles k·r approximates a quarter circle of radius r
    /// (4/3·(√2 − 1)); the curve lies outside the circle by at most 2.7e-4 r.
    private static let quarterCircleHandle = 4.0 / 3.0 * (2.0.squareRoot() - 1)

    /// Flattening tolerance used by `contains(_:)`, in points: fine enough that the answer
    /// differs from the true curve only within 0.1 pt of the outline.
    private static let containsTolerance: CGFloat = 0.1

    /// The start of the subpath the last element belongs to.
    private var subpathStart: CGPoint? {
        for element in elements.reversed() {
            if case .move(let p) = element { return p }
        }
        return nil
    }

    /// Makes sure a drawing element can be appended: false with no current point; after a close,
    /// re-opens a subpath at the closed subpath's start (CoreGraphics' implicit move).
    private func prepareToDraw() -> Bool {
        guard let last = elements.last else { return false }
        if last == .close, let s = subpathStart { elements.append(.move(to: s)) }
        return true
    }

    /// Appends one element through the public API, so malformed sequences are normalised.
    private func append(_ element: Element) {
        switch element {
        case .move(let p): move(to: p)
        case .line(let p): addLine(to: p)
        case .quadCurve(let p, let c): addQuadCurve(to: p, controlPoint: c)
        case .curve(let p, let c1, let c2): addCurve(to: p, controlPoint1: c1, controlPoint2: c2)
        case .close: close()
        }
    }

    private static func isFinite(_ p: CGPoint) -> Bool { p.x.isFinite && p.y.isFinite }

    /// Whether the rectangle and its far corner are finite (origin + size can overflow).
    private static func isFinite(_ r: CGRect) -> Bool {
        r.origin.x.isFinite && r.origin.y.isFinite && r.size.width.isFinite && r.size.height.isFinite
            && (r.origin.x + r.size.width).isFinite && (r.origin.y + r.size.height).isFinite
    }

    /// |a − 2b + c|, the size of a second difference of control points.
    private static func norm(_ a: CGPoint, _ b: CGPoint, _ c: CGPoint) -> Double {
        let x = Double(a.x) - 2 * Double(b.x) + Double(c.x)
        let y = Double(a.y) - 2 * Double(b.y) + Double(c.y)
        return (x * x + y * y).squareRoot()
    }

    /// Uniform pieces n with chord error ≤ tolerance: for a quadratic |B''| = 2·d, for a cubic
    /// |B''| ≤ 6·d, and the chord error is ≤ |B''|/(8 n²), so n = ⌈√(scale · d / tolerance)⌉
    /// with scale 1/4 (quadratic) or 3/4 (cubic).
    private static func pieces(secondDifference d: Double, scale: Double, tolerance: Double) -> Int {
        let n = (scale * d / tolerance).squareRoot().rounded(.up)
        guard n.isFinite else { return 4096 }
        return Swift.min(Swift.max(Int(n), 1), 4096)
    }

    private static func quadPoint(_ p0: CGPoint, _ c: CGPoint, _ p1: CGPoint, _ t: Double) -> CGPoint {
        let u = 1 - t
        let w0 = u * u, w1 = 2 * u * t, w2 = t * t
        return CGPoint(x: w0 * Double(p0.x) + w1 * Double(c.x) + w2 * Double(p1.x),
                       y: w0 * Double(p0.y) + w1 * Double(c.y) + w2 * Double(p1.y))
    }

    private static func cubicPoint(_ p0: CGPoint, _ c1: CGPoint, _ c2: CGPoint, _ p1: CGPoint,
                                   _ t: Double) -> CGPoint {
        let u = 1 - t
        let w0 = u * u * u, w1 = 3 * u * u * t, w2 = 3 * u * t * t, w3 = t * t * t
        return CGPoint(x: w0 * Double(p0.x) + w1 * Double(c1.x) + w2 * Double(c2.x) + w3 * Double(p1.x),
                       y: w0 * Double(p0.y) + w1 * Double(c1.y) + w2 * Double(c2.y) + w3 * Double(p1.y))
    }

    /// Accumulates a bounding box, skipping non-finite points, and knows where Béziers turn.
    private struct BoundingBox {
        var minX = Double.infinity, minY = Double.infinity
        var maxX = -Double.infinity, maxY = -Double.infinity

        var rect: CGRect {
            guard minX <= maxX, minY <= maxY else { return .null }
            return CGRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
        }

        mutating func add(_ p: CGPoint) {
            add(Double(p.x), Double(p.y))
        }

        mutating func add(_ x: Double, _ y: Double) {
            guard x.isFinite, y.isFinite else { return }
            minX = Swift.min(minX, x)
            maxX = Swift.max(maxX, x)
            minY = Swift.min(minY, y)
            maxY = Swift.max(maxY, y)
        }

        /// Adds the interior points where a quadratic's x or y derivative vanishes.
        mutating func addQuadExtrema(_ p0: CGPoint, _ c: CGPoint, _ p1: CGPoint) {
            for axis in 0..<2 {
                let a = axis == 0 ? Double(p0.x) : Double(p0.y)
                let b = axis == 0 ? Double(c.x) : Double(c.y)
                let e = axis == 0 ? Double(p1.x) : Double(p1.y)
                let denominator = a - 2 * b + e
                guard denominator != 0 else { continue }
                let t = (a - b) / denominator
                if t > 0, t < 1 { add(BezierPath.quadPoint(p0, c, p1, t)) }
            }
        }

        /// Adds the interior points where a cubic's x or y derivative vanishes
        /// (roots of the derivative, a quadratic in t).
        mutating func addCubicExtrema(_ p0: CGPoint, _ c1: CGPoint, _ c2: CGPoint, _ p1: CGPoint) {
            for axis in 0..<2 {
                let v0 = axis == 0 ? Double(p0.x) : Double(p0.y)
                let v1 = axis == 0 ? Double(c1.x) : Double(c1.y)
                let v2 = axis == 0 ? Double(c2.x) : Double(c2.y)
                let v3 = axis == 0 ? Double(p1.x) : Double(p1.y)
                // B'(t)/3 = a t² + b t + c
                let a = -v0 + 3 * v1 - 3 * v2 + v3
                let b = 2 * (v0 - 2 * v1 + v2)
                let c = v1 - v0
                for t in Self.roots(a, b, c) where t > 0 && t < 1 {
                    add(BezierPath.cubicPoint(p0, c1, c2, p1, t))
                }
            }
        }

        /// Real roots of a t² + b t + c, computed without catastrophic cancellation.
        private static func roots(_ a: Double, _ b: Double, _ c: Double) -> [Double] {
            let scale = Swift.max(abs(a), abs(b), abs(c))
            guard scale > 0, scale.isFinite else { return [] }
            if abs(a) <= scale * 1e-12 {
                return b != 0 ? [-c / b] : []
            }
            let discriminant = b * b - 4 * a * c
            guard discriminant >= 0 else { return [] }
            let q = -0.5 * (b + (b < 0 ? -1 : 1) * discriminant.squareRoot())
            var result = [q / a]
            if q != 0 { result.append(c / q) }
            return result
        }
    }
}

// MARK: - Codable

extension BezierPath {
    private enum CodingKeys: String, CodingKey {
        case elements, usesEvenOddFillRule
    }
}

extension BezierPath.Element: Codable {}
