import DynamicsEngine
import Foundation

/// Makes its items collide with each other and with boundaries: UIKit's `UICollisionBehavior`.
///
/// Items collide only with items of the same collision behaviour (two behaviours keep two
/// populations apart), and with the boundaries of the behaviours that hold them in
/// ``Mode-swift.struct/boundaries`` mode. Boundaries are static line segments: explicit ones
/// (``addBoundary(withIdentifier:for:)-(AnyHashable,_)``, ``addBoundary(withIdentifier:from:to:)-(AnyHashable,_,_)``) and, with
/// ``translatesReferenceBoundsIntoBoundary``, the animator's reference bounds. Against a boundary
/// an item's own friction and elasticity apply; between items friction mixes as √(f₁f₂) and
/// elasticity as max(e₁, e₂).
///
/// An animator tells up to 31 collision behaviours apart; a 32nd is reported and collides nothing.
///
/// The ``collisionDelegate`` hears contacts begin and end, after each step: every *began*, then
/// every *ended*, then the behaviours' actions. A bouncing item reports a began/ended pair per
/// bounce; a resting item stays in contact. An item–item contact is reported by every collision
/// behaviour holding both items in `.items` mode.
open class CollisionBehavior: DynamicBehavior {
    /// What a collision behaviour's items collide with. Raw values are UIKit's.
    public struct Mode: OptionSet, Sendable, Hashable {
        /// The bits.
        public let rawValue: UInt
        /// Creates a mode from its bits.
        public init(rawValue: UInt) { self.rawValue = rawValue }
        /// The items collide with each other.
        public static let items = Mode(rawValue: 1 << 0)
        /// The items collide with the boundaries.
        public static let boundaries = Mode(rawValue: 1 << 1)
        /// Items and boundaries: every bit set. The default.
        public static let everything = Mode(rawValue: .max)
    }

    /// Insets of the reference-bounds boundary from the reference bounds, in points: UIKit's
    /// `UIEdgeInsets`, the same type as ``EdgeInsets``. Positive values move the boundary inward.
    public typealias Insets = EdgeInsets

    private struct Boundary {
        /// The key boundaries are found by (see `BoundaryIdentifier`).
        var identifier: AnyHashable
        /// The `NSCopying` object UIKit-style code named the boundary with, handed back to the
        /// delegate as it was given; nil when named through the `AnyHashable` spelling.
        var object: (any NSCopying)?
        var path: BezierPath
        var segments: [(CGPoint, CGPoint)]
        /// The boundary slot of its world body, when built.
        var worldSlot: Int?
    }

    private var list: ItemList
    private var storedMode: Mode = .everything
    private var storedTranslates = false
    private var storedInsets = Insets.zero
    /// The explicit boundaries by identifier, in the order added (a replaced one keeps its place):
    /// adding, replacing, finding and removing one cost amortised O(1), so n boundaries named
    /// one by one cost O(n), not O(n²).
    private var boundaries = KeyedList<AnyHashable, Boundary>()
    /// Identifiers of boundaries whose bodies the next synchronisation builds (a boundary whose
    /// segments are all too short for the engine stays here and is tried again, as before): the
    /// synchronisation costs what changed, not what is there. May name removed boundaries.
    private var unbuilt: [AnyHashable] = []
    /// Boundary slots whose bodies must go at the next synchronisation.
    private var retiredSlots: [Int] = []
    private var referenceSlot: Int?
    private var referenceDirty = false
    /// This behaviour's filter slot in its animator (0…30), or nil.
    var slot: Int?

    /// Receives contact callbacks. Default `nil`.
    public weak var collisionDelegate: (any CollisionBehaviorDelegate)?

    /// What the items collide with. Default ``Mode-swift.struct/everything``. Changing it resumes
    /// a paused animator.
    public var collisionMode: Mode {
        get { storedMode }
        set { update(\.storedMode, to: newValue, needsSync: true) }
    }

    /// Whether the animator's reference bounds are a boundary. Default `false`. Setting it resets
    /// the insets to zero (as UIKit). An animator made with `init()` has no reference bounds: the
    /// setting is then reported and has no effect. With ``DynamicAnimator/init(referenceView:)``
    /// the boundary follows the view's bounds, read at every step (see that initialiser).
    public var translatesReferenceBoundsIntoBoundary: Bool {
        get { storedTranslates }
        set {
            storedInsets = .zero
            storedTranslates = newValue
            referenceDirty = true
            didChange(needsSync: true)
        }
    }

    /// The insets of the reference-bounds boundary, in points; `.zero` unless set with
    /// ``setTranslatesReferenceBoundsIntoBoundary(with:)``.
    public var referenceBoundsInsets: Insets { storedInsets }

    /// Makes the reference bounds, inset by `insets`, a boundary. Non-finite insets, or insets
    /// that leave no area, are reported and ignored.
    ///
    /// - Parameter insets: How far each edge moves inward, in points.
    public func setTranslatesReferenceBoundsIntoBoundary(with insets: Insets) {
        guard insets.top.isFinite, insets.left.isFinite, insets.bottom.isFinite, insets.right.isFinite else {
            report(.nonFiniteValue(property: "CollisionBehavior.setTranslatesReferenceBoundsIntoBoundary(with:)"),
                   "CollisionBehavior reference-bounds insets must be finite; ignored.")
            return
        }
        storedInsets = insets
        storedTranslates = true
        referenceDirty = true
        didChange(needsSync: true)
    }

    /// Creates a collision behaviour for `items`, with mode `.everything` and no boundaries.
    ///
    /// - Parameter items: The items; default none.
    public init(items: [any DynamicItem] = []) {
        list = ItemList(items)
        super.init()
    }

    /// The items, in the order added.
    public var items: [any DynamicItem] { list.items }

    /// Adds `item` (ignored if already present).
    public func addItem(_ item: any DynamicItem) {
        if list.add(item) { itemsDidChange([item]) }
    }

    /// Removes `item`; an item the behaviour does not have changes nothing (a note says so, as UIKit ignores it).
    public func removeItem(_ item: any DynamicItem) {
        if list.remove(item) { itemsDidChange([item]) } else { reportNotHeld(item) }
    }

    // MARK: Boundaries

    /// Adds a boundary made of `path`'s outline: curves are flattened to segments within 0.5 pt,
    /// and a closed subpath gets its closing segment. An identifier already in use replaces that
    /// boundary. A path that draws no segment, has a non-finite point or reaches beyond ±10⁷ pt is
    /// reported and ignored.
    /// Resumes a paused animator.
    ///
    /// - Parameters:
    ///   - identifier: The name reported to the delegate.
    ///   - path: The outline, in the animator's coordinate space.
    public func addBoundary(withIdentifier identifier: AnyHashable, for path: BezierPath) {
        addBoundary(BoundaryIdentifier.normalized(identifier), object: nil, for: path)
    }

    /// Adds a boundary made of `path`'s outline, named as UIKit names boundaries: with an
    /// `NSCopying` object (`"wall" as NSCopying`). The delegate's UIKit-spelled methods receive
    /// this object; the boundary is also found by the equal Swift value
    /// (`boundary(withIdentifier: "wall")`). Otherwise as ``addBoundary(withIdentifier:for:)-(AnyHashable,_)``.
    ///
    /// - Parameters:
    ///   - identifier: The name reported to the delegate.
    ///   - path: The outline, in the animator's coordinate space.
    @_disfavoredOverload
    public func addBoundary(withIdentifier identifier: any NSCopying, for path: BezierPath) {
        addBoundary(BoundaryIdentifier.key(identifier), object: identifier, for: path)
    }

    private func addBoundary(_ identifier: AnyHashable, object: (any NSCopying)?, for path: BezierPath) {
        guard identifierIsUsable(identifier) else { return }
        var segments: [(CGPoint, CGPoint)] = []
        for polyline in path.flattened(tolerance: 0.5) {
            let p = polyline.points
            for i in 0..<(p.count - 1) { segments.append((p[i], p[i + 1])) }
            if polyline.isClosed, p.count > 2 { segments.append((p[p.count - 1], p[0])) }
        }
        guard !segments.isEmpty else {
            report(.unusableBoundary(identifier: "\(identifier)"),
                   "CollisionBehavior.addBoundary(withIdentifier: \(identifier)): the path draws no segment; ignored.")
            return
        }
        guard !path.hasNonFinitePoints, segments.allSatisfy({ $0.0.isUsableAnimatorValue && $0.1.isUsableAnimatorValue }) else {
            report(.unusableBoundary(identifier: "\(identifier)"),
                   "CollisionBehavior.addBoundary(withIdentifier: \(identifier)): the path has a non-finite point or reaches beyond ±10⁷ pt; ignored.")
            return
        }
        // The caller keeps its path and may go on changing it: the boundary is what it drew now.
        install(Boundary(identifier: identifier, object: object, path: path.snapshotCopy(), segments: segments))
    }

    /// Adds a straight boundary from `p1` to `p2` (points). An identifier already in use replaces
    /// that boundary. Non-finite, coincident or farther than ±10⁷ pt points are reported and ignored.
    ///
    /// - Parameters:
    ///   - identifier: The name reported to the delegate.
    ///   - p1: One end, in points.
    ///   - p2: The other end, in points.
    public func addBoundary(withIdentifier identifier: AnyHashable, from p1: CGPoint, to p2: CGPoint) {
        addBoundary(BoundaryIdentifier.normalized(identifier), object: nil, from: p1, to: p2)
    }

    /// Adds a straight boundary from `p1` to `p2` (points), named as UIKit names boundaries: with
    /// an `NSCopying` object (`"floor" as NSCopying`). The delegate's UIKit-spelled methods receive
    /// this object; the boundary is also found by the equal Swift value. Otherwise as
    /// ``addBoundary(withIdentifier:from:to:)-(AnyHashable,_,_)``.
    ///
    /// - Parameters:
    ///   - identifier: The name reported to the delegate.
    ///   - p1: One end, in points.
    ///   - p2: The other end, in points.
    @_disfavoredOverload
    public func addBoundary(withIdentifier identifier: any NSCopying, from p1: CGPoint, to p2: CGPoint) {
        addBoundary(BoundaryIdentifier.key(identifier), object: identifier, from: p1, to: p2)
    }

    private func addBoundary(_ identifier: AnyHashable, object: (any NSCopying)?, from p1: CGPoint, to p2: CGPoint) {
        guard identifierIsUsable(identifier) else { return }
        guard p1.isUsableAnimatorValue, p2.isUsableAnimatorValue, p1 != p2 else {
            report(.unusableBoundary(identifier: "\(identifier)"),
                   "CollisionBehavior.addBoundary(withIdentifier: \(identifier)) needs two distinct finite points within ±10⁷ pt; ignored.")
            return
        }
        let path = BezierPath()
        path.move(to: p1)
        path.addLine(to: p2)
        install(Boundary(identifier: identifier, object: object, path: path, segments: [(p1, p2)]))
    }

    /// Whether `identifier` can name a boundary: it must equal itself. A NaN (`Double.nan`,
    /// `Float.nan`, `CGFloat.nan`, an `NSNumber` holding one, or a value holding one) does not,
    /// so such a boundary could never be found, replaced or removed, and the animator's own
    /// snapshot would be refused as naming a boundary that is not there. Reported and ignored.
    private func identifierIsUsable(_ identifier: AnyHashable) -> Bool {
        guard identifier == identifier else {
            report(.unusableBoundary(identifier: "\(identifier)"),
                   "CollisionBehavior.addBoundary(withIdentifier: \(identifier)): an identifier that is not equal to itself (a NaN) could never be found or removed; ignored.")
            return false
        }
        return true
    }

    private func install(_ boundary: Boundary) {
        if let old = boundaries.set(boundary, for: boundary.identifier), let s = old.worldSlot { retiredSlots.append(s) }
        markUnbuilt(boundary.identifier)
        didChange(needsSync: true)
    }

    /// Lists `key` for the next synchronisation (in an animator; `attach` lists every boundary).
    /// Churn between synchronisations (one identifier added and removed again and again) would
    /// grow the list without bound: past twice the boundaries it is cut to the live ones.
    private func markUnbuilt(_ key: AnyHashable) {
        guard dynamicAnimator != nil else { return }
        unbuilt.append(key)
        if unbuilt.count > 2 * boundaries.count + 16 {
            unbuilt = boundaries.ordered(unbuilt).filter { boundaries[$0]?.worldSlot == nil }
        }
    }

    /// The boundary named `identifier` as a path (a two-point path for a segment boundary), or nil.
    /// Each call answers a new path, as UIKit's does: changing it changes nothing in the behaviour
    /// (add it again for that).
    ///
    /// - Parameter identifier: The boundary's name.
    public func boundary(withIdentifier identifier: AnyHashable) -> BezierPath? {
        boundaries[BoundaryIdentifier.normalized(identifier)]?.path.snapshotCopy()
    }

    /// The boundary named by the `NSCopying` object `identifier` (or an equal Swift value), or nil.
    ///
    /// - Parameter identifier: The boundary's name.
    @_disfavoredOverload
    public func boundary(withIdentifier identifier: any NSCopying) -> BezierPath? {
        boundary(withIdentifier: BoundaryIdentifier.key(identifier))
    }

    /// Removes the boundary named `identifier`. An unknown identifier changes nothing, as in
    /// UIKit; a ``DynamicsDiagnostic/Severity-swift.enum/note`` says so.
    /// Resumes a paused animator.
    ///
    /// - Parameter identifier: The boundary's name.
    public func removeBoundary(withIdentifier identifier: AnyHashable) {
        let key = BoundaryIdentifier.normalized(identifier)
        guard let removed = boundaries.remove(key) else {
            report(.nothingToRemove,
                   "CollisionBehavior.removeBoundary(withIdentifier: \(identifier)): no boundary has this identifier; nothing to remove (UIKit ignores this too).",
                   severity: .note)
            return
        }
        if let s = removed.worldSlot { retiredSlots.append(s) }
        didChange(needsSync: true)
    }

    /// Removes the boundary named by the `NSCopying` object `identifier` (or an equal Swift value).
    /// An unknown identifier changes nothing, as in UIKit; a note says so.
    ///
    /// - Parameter identifier: The boundary's name.
    @_disfavoredOverload
    public func removeBoundary(withIdentifier identifier: any NSCopying) {
        removeBoundary(withIdentifier: BoundaryIdentifier.key(identifier))
    }

    /// The identifiers of the explicit boundaries, in the order added; empty when there are none.
    public var boundaryIdentifiers: [AnyHashable] { boundaries.keys }

    /// Removes every explicit boundary; the reference-bounds boundary stays.
    public func removeAllBoundaries() {
        guard !boundaries.isEmpty else { return }
        for (_, b) in boundaries.entries { if let s = b.worldSlot { retiredSlots.append(s) } }
        boundaries.removeAll()
        unbuilt = []
        didChange(needsSync: true)
    }

    // MARK: Animator hooks

    override var heldItems: [any DynamicItem] { list.items }

    override func attach(to animator: DynamicAnimator) {
        slot = animator.claimCollisionSlot(for: self)
        boundaries.modifyAll { $0.worldSlot = nil }
        unbuilt = boundaries.keys
        retiredSlots = []
        referenceSlot = nil
        referenceDirty = true
    }

    override func detach(from animator: DynamicAnimator) {
        for s in retiredSlots { animator.destroyBoundaryBody(slot: s) }
        retiredSlots = []
        for (_, b) in boundaries.entries { if let s = b.worldSlot { animator.destroyBoundaryBody(slot: s) } }
        boundaries.modifyAll { $0.worldSlot = nil }
        unbuilt = []
        if let s = referenceSlot { animator.destroyBoundaryBody(slot: s) }
        referenceSlot = nil
        if let k = slot { animator.releaseCollisionSlot(k) }
        slot = nil
    }

    override func syncWorld(_ animator: DynamicAnimator) {
        for s in retiredSlots { animator.destroyBoundaryBody(slot: s) }
        retiredSlots = []
        guard let k = slot else { return }
        if referenceDirty {
            referenceDirty = false
            if let s = referenceSlot { animator.destroyBoundaryBody(slot: s) }
            referenceSlot = nil
            if storedTranslates { referenceSlot = makeReferenceBoundary(animator, slot: k) }
        }
        guard !unbuilt.isEmpty else { return }
        // In the order of the list, as when every boundary was looked at: bodies and boundary
        // slots are made in the same order.
        let keys = boundaries.ordered(unbuilt)
        unbuilt = []
        for key in keys {
            guard let b = boundaries[key], b.worldSlot == nil else { continue }
            if let made = animator.makeBoundaryBody(segments: b.segments, behavior: self, slot: k, identifier: key)?.slot {
                boundaries.modify(key) { $0.worldSlot = made }
            } else {
                unbuilt.append(key)
            }
        }
    }

    // MARK: Snapshots

    /// The number of explicit boundaries (the animator's snapshot checks its boundary records).
    var boundaryCount: Int { boundaries.count }

    /// The identifier of explicit boundary `index` (its place in ``boundaryIdentifiers``).
    func boundaryIdentifier(at index: Int) -> AnyHashable { boundaries.entry(at: index).key }

    /// The place of the boundary named `key` in ``boundaryIdentifiers``, or nil: O(1) after
    /// the first call following a removal.
    func boundaryIndex(of key: AnyHashable) -> Int? { boundaries.index(of: key) }

    /// The `NSCopying` object the delegate's UIKit-spelled methods receive for the boundary `key`:
    /// the object it was named with, or the key's `NSCopying` form.
    func identifierObject(for key: AnyHashable) -> any NSCopying {
        boundaries[key]?.object ?? BoundaryIdentifier.object(key)
    }

    /// The boundaries' identifiers and geometry (hashed bit for bit): a restored world holds the
    /// boundary bodies of the snapshot, so the behaviour must describe the same boundaries.
    override var snapshotSignature: String {
        var h = FNV1a()
        let entries = boundaries.entries
        for (_, b) in entries { for (p, q) in b.segments { for v in [p.x, p.y, q.x, q.y] { h.add(Double(v)) } } }
        let names = entries.map { "\($0.key)" }.joined(separator: ", ")
        return "boundaries [\(names)] geometry \(String(h.value, radix: 16))"
    }

    override func saveState(to writer: inout SnapshotWriter, in animator: DynamicAnimator) {
        writer.add(bits: UInt64(storedMode.rawValue))
        writer.add(storedTranslates)
        writer.add(storedInsets.top)
        writer.add(storedInsets.left)
        writer.add(storedInsets.bottom)
        writer.add(storedInsets.right)
        writer.add(boundaries.count)
        for (_, b) in boundaries.entries { writer.add(b.worldSlot ?? -1) }
        writer.add(retiredSlots.count)
        for s in retiredSlots { writer.add(s) }
        writer.add(referenceSlot ?? -1)
        writer.add(referenceDirty)
        writer.add(slot ?? -1)
    }

    override func restoreState(from reader: inout SnapshotReader, context: SnapshotRestoreContext) throws -> () -> Void {
        let mode = Mode(rawValue: UInt(truncatingIfNeeded: try reader.bits()))
        let translates = try reader.bool()
        let insets = Insets(top: try reader.finite(), left: try reader.finite(), bottom: try reader.finite(), right: try reader.finite())
        let slots = context.boundarySlotCount
        let me = context.behaviorIndex
        /// A boundary slot owned by this behaviour as `boundary` (nil: any of its boundaries).
        func owned(_ s: Int, _ boundary: Int?) -> Bool {
            guard let owner = context.boundaryOwners[s] else { return false }
            return owner.behavior == me && (boundary == nil || owner.boundary == boundary)
        }
        guard try reader.int(0...Int(Int32.max)) == boundaries.count else { throw reader.corrupt("the number of boundaries differs") }
        var worldSlots: [Int?] = []
        for i in 0..<boundaries.count {
            let s = try reader.int(-1...max(-1, slots - 1))
            guard s < 0 || owned(s, i) else { throw reader.corrupt("boundary \(i) names a boundary body it does not own") }
            worldSlots.append(s < 0 ? nil : s)
        }
        var retired: [Int] = []
        for _ in 0..<(try reader.count()) {
            let s = try reader.int(0...max(0, slots - 1))
            guard slots > 0, owned(s, nil) else { throw reader.corrupt("a retired boundary body it does not own") }
            retired.append(s)
        }
        let reference = try reader.int(-1...max(-1, slots - 1))
        guard reference < 0 || owned(reference, -1) else { throw reader.corrupt("its reference boundary is not its own") }
        let dirty = try reader.bool()
        let k = try reader.int(-1...(CollisionBits.maxBehaviors - 1))
        guard k < 0 ? !context.collisionSlotOwners.contains(me) : context.collisionSlotOwners[k] == me else {
            throw reader.corrupt("its collision slot \(k) is not its own")
        }
        return { [self] in
            storedMode = mode
            storedTranslates = translates
            storedInsets = insets
            for i in worldSlots.indices { boundaries.modify(at: i) { $0.worldSlot = worldSlots[i] } }
            unbuilt = worldSlots.indices.filter { worldSlots[$0] == nil }.map { boundaries.entry(at: $0).key }
            retiredSlots = retired
            referenceSlot = reference < 0 ? nil : reference
            referenceDirty = dirty
            slot = k < 0 ? nil : k
        }
    }

    /// The animator's reference bounds changed (its reference view was resized or deallocated):
    /// the reference-bounds boundary is rebuilt at the next synchronisation and the items wake.
    func referenceBoundsDidChange() {
        guard storedTranslates else { return }
        referenceDirty = true
        didChange(needsSync: true)
    }

    private func makeReferenceBoundary(_ animator: DynamicAnimator, slot k: Int) -> Int? {
        guard let bounds = animator.referenceBoundsInUse else {
            if animator.madeWithReferenceView && animator.referenceView == nil {
                animator.reportOnce(.referenceBoundsUnusable,
                                    "CollisionBehavior.translatesReferenceBoundsIntoBoundary: the animator's reference view has been deallocated, so there is no reference-bounds boundary (UIKit has none either).")
            } else if animator.madeWithReferenceView {
                report(.referenceBoundsUnusable,
                       "CollisionBehavior.translatesReferenceBoundsIntoBoundary: the reference view's bounds are not usable yet; no reference-bounds boundary until they are.")
            } else {
                report(.referenceBoundsUnusable,
                       "CollisionBehavior.translatesReferenceBoundsIntoBoundary needs an animator with reference bounds; this one has none.")
            }
            return nil
        }
        let i = storedInsets
        let minX = bounds.minX + i.left, maxX = bounds.maxX - i.right
        let minY = bounds.minY + i.top, maxY = bounds.maxY - i.bottom
        guard minX < maxX, minY < maxY else {
            report(.referenceBoundsUnusable,
                   "CollisionBehavior reference-bounds insets leave no area; no reference boundary.")
            return nil
        }
        guard CGPoint(x: minX, y: minY).isUsableAnimatorValue, CGPoint(x: maxX, y: maxY).isUsableAnimatorValue else {
            report(.referenceBoundsUnusable,
                   "CollisionBehavior reference-bounds insets put the boundary beyond ±10⁷ pt; no reference boundary.")
            return nil
        }
        let tl = CGPoint(x: minX, y: minY), tr = CGPoint(x: maxX, y: minY)
        let br = CGPoint(x: maxX, y: maxY), bl = CGPoint(x: minX, y: maxY)
        return animator.makeBoundaryBody(segments: [(tl, tr), (tr, br), (br, bl), (bl, tl)], behavior: self, slot: k,
                                         identifier: nil)?.slot
    }
}
