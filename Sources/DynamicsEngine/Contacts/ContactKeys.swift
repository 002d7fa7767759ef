// What the step's scan reads of every contact slot, kept beside the 200-byte records.

/// A contact slot's bodies, their kinds, its colour and state: all the step's scan of the slots
/// (`World.scanContacts`) reads of it, 12 bytes instead of the record's first cache line and
/// both bodies' records (the scan finds the bodies' places in the awake list in a per-step array
/// instead, `SolverScratch.awakeSlots`).
///
/// Why a copy: the scan visits every slot every step, touching or not, to find the contacts the
/// step solves. Reading the records for it streamed 200 bytes a slot through the cache (the
/// narrow phase had streamed them just before, and the sort into solve order streams them again
/// after): large_pyramid's 14 950 records are 3 MB, more than this machine's L2, and the scan
/// waited on them for most of its time (perf: 4.5 % of a one-thread large_pyramid step, 6.2 % of
/// junkyard's). Box2D keeps its touching contacts in per-colour arrays and has no such scan.
///
/// Kept equal to the record by every writer of these fields (`World.refreshContactKey` at
/// creation and destruction, the colour's two writers, the narrow phase's touch flag, a restore);
/// the validation walk checks every slot. The bodies' kinds cannot go stale: a body's type
/// changes only after its contacts are destroyed (`World.setBodyType`).
struct ContactKey: Equatable {
    var bodyA: Int32 = -1
    var bodyB: Int32 = -1
    /// `Contact.color`.
    var color: UInt8 = 0
    private var flags: UInt8 = 0

    private static let alive: UInt8 = 1, touching: UInt8 = 2, staticPair: UInt8 = 4, dynamic: UInt8 = 8

    /// `Contact.isAlive`.
    var isAlive: Bool { flags & Self.alive != 0 }
    /// `Contact.isTouching`.
    var isTouching: Bool {
        get { flags & Self.touching != 0 }
        set { flags = newValue ? flags | Self.touching : flags & ~Self.touching }
    }
    /// Whether either body is static.
    var isStaticPair: Bool { flags & Self.staticPair != 0 }
    /// Whether either body is dynamic.
    var hasDynamicBody: Bool { flags & Self.dynamic != 0 }

    init() {}

    init(_ c: Contact, bodies: UnsafePointer<Body>) {
        bodyA = c.bodyA
        bodyB = c.bodyB
        color = c.color
        if c.isAlive { flags |= Self.alive }
        if c.isTouching { flags |= Self.touching }
        // a dead slot's bodies may be gone: only a live contact's kinds are read
        guard c.isAlive else { return }
        let ta = bodies[Int(c.bodyA)].type, tb = bodies[Int(c.bodyB)].type
        if ta == .static || tb == .static { flags |= Self.staticPair }
        if ta == .dynamic || tb == .dynamic { flags |= Self.dynamic }
    }
}

/// The contact keys, one per contact slot (`World.contacts`), at stable addresses between
/// structural changes: the narrow phase's blocks write their own slots' touch flags through
/// `base` in parallel.
final class ContactKeys {
    private(set) var base: UnsafeMutablePointer<ContactKey>
    private var capacity: Int

    init() {
        capacity = 16
        base = .allocate(capacity: capacity)
        base.initialize(repeating: ContactKey(), count: capacity)
    }

    deinit { base.deallocate() }

    /// Room for slots `0..<count`; new slots read as dead.
    func reserve(_ count: Int) {
        guard count > capacity else { return }
        let grown = max(count, 2 * capacity)
        let p = UnsafeMutablePointer<ContactKey>.allocate(capacity: grown)
        p.moveInitialize(from: base, count: capacity)
        (p + capacity).initialize(repeating: ContactKey(), count: grown - capacity)
        base.deallocate()
        base = p
        capacity = grown
    }
}

extension World {
    /// Copies contact slot `ci`'s record into its key (after it is made, freed or restored).
    func refreshContactKey(_ ci: Int32) {
        contactKeys.reserve(Int(ci) + 1)
        contactKeys.base[Int(ci)] = ContactKey(contacts[Int(ci)], bodies: bodies.base)
    }

    /// Every slot's key from its record (after a restore replaced the records).
    func rebuildContactKeys() {
        contactKeys.reserve(contacts.count)
        for i in contacts.indices { contactKeys.base[i] = ContactKey(contacts[i], bodies: bodies.base) }
    }
}
