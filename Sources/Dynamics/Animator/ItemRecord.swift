import DynamicsEngine
import Foundation

/// The material and motion settings of one item, as resolved from the animator's
/// ``DynamicItemBehavior``s (the last one in depth-first order wins, per property, for properties
/// it set explicitly). Defaults are UIKit's documented ones.
struct ItemProperties: Equatable {
    var elasticity: CGFloat = 0
    var friction: CGFloat = 0
    var density: CGFloat = 1
    var resistance: CGFloat = 0
    var angularResistance: CGFloat = 0
    var charge: CGFloat = 0
    var isAnchored = false
    var allowsRotation = true
}

/// The inputs of one item's collision shape.
struct ShapeSignature: Equatable {
    var size: CGSize
    var type: DynamicItemCollisionBoundsType
    var path: BezierPath?

    init(_ item: any DynamicItem) {
        size = item.bounds.size
        type = item.collisionBoundsType
        // A copy: the item's path is an object its owner may change in place, and the comparison
        // in `updateItem(usingCurrentState:)` must see the path as it was read.
        path = type == .path ? item.collisionBoundingPath?.snapshotCopy() : nil
    }
}

/// One member of a group's body: the item, and its pose in the group's body frame.
struct GroupMember {
    let item: any DynamicItem
    /// The member's center in the group's frame (pt).
    var offset: CGPoint
    /// The member's rotation relative to the group (rad).
    var angle: CGFloat
}

/// What the animator knows about one item in its world: the engine body that simulates it, and
/// the per-item state behaviours need (mass, charge, velocity through the world).
///
/// Records live in `DynamicAnimator.records` in the order items joined, which is the order of
/// ``FrameReport/items`` and of every per-item loop but the write-back (that one follows the
/// engine's list of the bodies a step moved, in solve order), so nothing depends on hashing. A
/// record's `slot` is its index in `recordSlots`; shapes and bodies carry it in `userData`
/// (`EngineOwner`), which is how a contact event and the write-back find their items again. A force behaviour (gravity, push, fields) reads the record
/// and calls `DynamicAnimator.applyForce(_:to:at:)`.
final class ItemRecord {
    // The write-back's fields come first, in the order it reads them, so the per-step walk over
    // thousands of records touches two cache lines of each instead of six: Swift lays a class's
    // stored properties out in declaration order, and these fields were spread over 450 bytes
    // (ui_fields: 3 of 11 cache misses per moved item were the record's). Keep them together.

    let item: any DynamicItem
    /// `item` when it is a ``BasicDynamicItem``: the write-back sets its `center` and `transform`
    /// through the class (stored properties, not `open`: a plain store) instead of through the
    /// protocol, which first reads the item's type from its header, a cache miss of its own.
    /// Unmanaged (an `unowned(unsafe)` reference was retained and released at every use): `item`
    /// holds the same object strongly for the record's whole life.
    let basicItem: Unmanaged<BasicDynamicItem>?
    /// What was last written to (or read from) the item, so unchanged items are not written.
    var lastCenter: CGPoint = .zero
    var lastAngle: CGFloat = 0
    /// The body's pose after the last step that moved it (or as last set by hand): what the item
    /// shows when the animator does not interpolate. Derived from the world, not saved.
    var stepCenter: CGPoint = .zero
    var stepAngle: CGFloat = 0
    /// The body's rotation and its angle, as last computed: most bodies do not turn in most
    /// steps, and the angle (an arctangent) is the write-back's dearest part. A NaN rotation
    /// (never equal to a body's) means none yet. Derived, not saved.
    var angleCacheRotation = Rot(c: .nan, s: .nan)
    var angleCacheAngle: CGFloat = 0
    /// `properties.isAnchored`, kept beside the pose: the write-back asks it of every moved item,
    /// and `properties` lies two cache lines further on.
    private(set) var isAnchored = false
    /// Whether `members` is not empty, kept beside it: the write-back asks for every item every
    /// step, and reading the array of a class instance costs a dynamic exclusivity check.
    private(set) var isGroup = false
    /// The rotation transform last written, as `transformCacheAngle` and the `a` and `b` of
    /// `CGAffineTransform(rotationAngle:)` (its `c` is −b, `d` is a, no translation): an item that
    /// moves without turning is given it again without a sine and a cosine. NaN when there is
    /// none (or the platform's rotation is not of that shape, when nothing is cached). Derived,
    /// not saved.
    private(set) var transformCacheAngle: CGFloat = .nan
    private var transformCacheCosine: CGFloat = 1
    private(set) var transformCacheSine: CGFloat = 0

    // Cold: read when the item joins, changes or is saved.

    let id: ObjectIdentifier
    let slot: Int
    var body: BodyID = .null
    var shapes: [ShapeID] = []
    /// Multiplier of the item's density per shape: an ellipse's inscribed polygon is a little
    /// smaller than the ellipse, so its density is raised to keep mass = density × π·w·h/4.
    var densityScales: [Float] = []
    /// The size the shapes were built from (pt), after sanitising.
    var size: CGSize = .zero
    /// What the shapes were built from (per shape-bearing item: size, type, path), so
    /// `updateItem(usingCurrentState:)` rebuilds them only when it changed.
    var shapeSignature: [ShapeSignature] = []
    var properties = ItemProperties() { didSet { isAnchored = properties.isAnchored } }
    var filter = Filter(categoryBits: CollisionBits.item, maskBits: 0)
    /// Scratch of the filter computation: item-mode and boundary-mode bits of the collision
    /// behaviours containing the item.
    var itemModeBits: UInt64 = 0
    var boundaryModeBits: UInt64 = 0
    /// Scratch of the property resolution.
    var resolvedProperties = ItemProperties()
    /// Members when the item is a ``DynamicItemGroup``.
    var members: [GroupMember] = [] { didSet { isGroup = !members.isEmpty } }
    /// Where the shown pose starts, and at which fraction of the step it stands there, while the
    /// item moved in the animator's last step (`presentationStamp` says so): the pose before the
    /// step at fraction 0, or after a restore the pose the snapshot showed. See
    /// `DynamicAnimator.interpolatesItems`.
    var fromCenter: CGPoint = .zero
    var fromAngle: CGFloat = 0
    var fromFraction: Double = 0
    /// The animator's `presentationStamp` when this record last entered its `presenting` list;
    /// -1 after it was set by hand (it then shows its new pose, not a blend).
    var presentationStamp = -1
    /// The record's index in `DynamicAnimator.records` when a query last looked (its join order),
    /// checked before use and recomputed for all when stale (see `DynamicAnimator.joinRank`).
    var joinRank = -1

    init(item: any DynamicItem, slot: Int) {
        self.item = item
        self.basicItem = (item as? BasicDynamicItem).map { Unmanaged.passUnretained($0) }
        self.id = ObjectIdentifier(item)
        self.slot = slot
    }

    /// The rotation transform of `transformCacheAngle`, as cached (valid when that is not NaN).
    var cachedTransform: CGAffineTransform {
        CGAffineTransform(a: transformCacheCosine, b: transformCacheSine, c: -transformCacheSine,
                          d: transformCacheCosine, tx: 0, ty: 0)
    }

    /// The cached rotation transform and its angle, nil when there is none.
    var transformCache: (angle: CGFloat, transform: CGAffineTransform)? {
        transformCacheAngle.isNaN ? nil : (transformCacheAngle, cachedTransform)
    }

    /// Caches `transform`, the rotation by `angle`, when it has the shape `cachedTransform` rebuilds
    /// bit for bit (it does wherever `CGAffineTransform(rotationAngle:)` is cos, sin, −sin, cos);
    /// otherwise caches nothing, and every write computes the rotation afresh.
    func cacheTransform(_ transform: CGAffineTransform, angle: CGFloat) {
        transformCacheCosine = transform.a
        transformCacheSine = transform.b
        let rebuilt = cachedTransform
        let exact = rebuilt.c.bitPattern == transform.c.bitPattern
            && rebuilt.d.bitPattern == transform.d.bitPattern
            && rebuilt.tx.bitPattern == transform.tx.bitPattern && rebuilt.ty.bitPattern == transform.ty.bitPattern
        transformCacheAngle = exact ? angle : .nan
    }

    /// Reads one word on each cache line of the write-back's fields (bytes 16 to 136 of the
    /// object; no two reads lie more than 64 bytes apart) and, for a ``BasicDynamicItem``, of the
    /// item's first 80 bytes (its header, `center` and `transform`), and returns them mixed: for
    /// `DynamicAnimator.writeBack()`'s first pass, whose only purpose is to bring those lines in
    /// for many records at a time. Reads memory only, no property of the item; changes nothing.
    /// Other items are not read: their layout is their own.
    @inline(__always)
    var hotLinesDigest: UInt {
        var digest = stepCenter.y.bitPattern ^ transformCacheSine.bitPattern
        if let basic = basicItem {
            // Read raw (asking for a property or the type retains and releases the item): a
            // BasicDynamicItem stores at least a center and a transform after its 16-byte header,
            // so its first 80 bytes are its own.
            let object = UnsafeRawPointer(basic.toOpaque())
            digest ^= object.load(as: UInt.self) ^ object.load(fromByteOffset: 64, as: UInt.self)
        } else {
            digest ^= UInt(bitPattern: ObjectIdentifier(item))
        }
        return digest
    }

    /// The item's name for reports: ``BasicDynamicItem/name``, else nil.
    var name: String? { (item as? BasicDynamicItem)?.name }
}
