/// Greedy graph colouring of the constraints (Box2D v3's scheme).
///
/// Within one colour no dynamic body appears twice, so a colour's constraints are independent: they
/// can be solved in any order, in SIMD lanes or on several threads, with the same result. Colour 0 of
/// the layout is the overflow set (constraints that found no free colour); dynamic–dynamic
/// constraints take colours from the low end, constraints against static or kinematic bodies from
/// the high end, so in each Gauss–Seidel pass the immovable side has the last word (less
/// push-through). Solving overflow first and then colours in order reproduces Box2D's order.
///
/// Contacts keep their colour from the step they begin touching to the step they stop, as in
/// Box2D v3's constraint graph (`World.colorTouchingContact`; each dynamic body's colours are in
/// `Body.contactColors`): a step reads the colours instead of choosing them again, so the only
/// serial work left per step is a prefix sum over blocks. Joints are coloured by this class around
/// the colours their bodies' contacts hold, and their colours kept until something they depend on
/// changes (`KeptJointGraph`).
final class ConstraintColoring {
    /// Overflow + 23 colours.
    static let colorCount = 24
    static let dynamicColorLimit = 20
    /// Per body (awake index, and the shared zero record after them), the colours its joints took
    /// this step: bit c for colour c. One word per body makes a colour choice one or two loads and
    /// a bit scan; a bitset per colour took two bit tests per colour tried.
    private var masks: UnsafeMutablePointer<UInt32>
    private let count: Int

    init(bodyCount: Int) {
        count = bodyCount + 1
        masks = .allocate(capacity: count)
        masks.initialize(repeating: 0, count: count)
    }

    func release() { masks.deallocate() }

    /// Colours 1…20, for constraints between two dynamic bodies (lowest free one first).
    private static let dynamicColors: UInt32 = ((1 << (dynamicColorLimit + 1)) - 1) & ~1
    /// Colours 2…23, for constraints with one dynamic body (highest free one first).
    private static let staticColors: UInt32 = ((1 << colorCount) - 1) & ~3

    /// The colour for a constraint whose bodies already hold the colours `takenA` and `takenB`:
    /// 0 (overflow) when none is free or neither body is dynamic.
    @inline(__always)
    static func choose(takenA: UInt32, takenB: UInt32, dynamicA: Bool, dynamicB: Bool) -> Int32 {
        if dynamicA && dynamicB {
            let free = ~(takenA | takenB) & dynamicColors
            if free != 0 { return Int32(free.trailingZeroBitCount) }
        } else if dynamicA || dynamicB {
            let free = ~(dynamicA ? takenA : takenB) & staticColors
            if free != 0 { return Int32(31 - free.leadingZeroBitCount) }
        }
        return 0
    }

    /// A joint's layout slot (0 = overflow, 1… = colours in solve order), given its bodies' awake
    /// indices and the colours their contacts hold (`Body.contactColors`).
    @inline(__always)
    func assign(_ a: Int32, _ b: Int32, dynamicA: Bool, dynamicB: Bool, contactsA: UInt32, contactsB: UInt32) -> Int32 {
        let takenA = masks[Int(a)] | contactsA, takenB = masks[Int(b)] | contactsB
        let color = ConstraintColoring.choose(takenA: takenA, takenB: takenB, dynamicA: dynamicA, dynamicB: dynamicB)
        if color != 0 {
            let bit: UInt32 = 1 << UInt32(color)
            if dynamicA { masks[Int(a)] |= bit }
            if dynamicB { masks[Int(b)] |= bit }
        }
        return color
    }
}

/// The buckets of the contacts' solve order: each colour's contacts in `groups` groups by their
/// bodies' rows (awake indices), so that with `groups` threads, thread t's share of every
/// colour is mostly group t, and the rows it updates stay in its own core's cache from colour to
/// colour (on two threads this took about a tenth off the solve phase of tumbler, compounds and
/// smash).
///
/// Why it is free to choose: no dynamic body appears twice in a colour (kinematic bodies, which
/// take no impulse, aside), so the order of a colour's contacts changes no bit of the solve
/// (each lane of a wide constraint computes alone), whatever the thread count. The overflow set
/// (colour 0) is solved one after another, in order: it stays one group.
struct ColorGroups {
    let groups: Int
    let awakeCount: Int
    /// groups / awakeCount in 32.32 fixed point: a row's group is a multiply and a shift, where a
    /// division per contact was a quarter of the scan's time (perf, large_pyramid). Rounding down
    /// can put a row at a group's edge in the group before; any grouping gives the same bits.
    private let scale: UInt64
    /// Buckets: colour · `groups` + group.
    var count: Int { ConstraintColoring.colorCount * groups }

    /// `groups` (1…16) groups of the rows `0..<awakeCount`.
    init(groups: Int, awakeCount: Int) {
        self.groups = max(1, min(groups, 16))
        self.awakeCount = max(1, awakeCount)
        scale = (UInt64(self.groups) << 32) / UInt64(self.awakeCount)
    }

    /// The group of a constraint between the rows `a` and `b` (`awakeCount` for a body that is
    /// not awake; one of them is): their midpoint's (the other's row against a body that is not
    /// awake), so a pair across two groups goes to either as often and the groups stay even.
    @inline(__always)
    func group(_ a: Int32, _ b: Int32) -> UInt8 {
        let a = Int(a), b = Int(b)
        let row = a >= awakeCount ? b : b >= awakeCount ? a : (a + b) / 2
        // row < awakeCount, so the product stays below groups · 2³²
        return UInt8(min(UInt64(groups - 1), (UInt64(min(max(0, row), awakeCount)) &* scale) >> 32))
    }

    /// The bucket of a constraint of `color` in `group`: the overflow set (colour 0) is one bucket.
    @inline(__always)
    func bucket(_ color: UInt8, _ group: UInt8) -> Int {
        color == 0 ? 0 : Int(color) * groups + Int(group)
    }

    /// The bucket of a constraint of `color` between the rows `a` and `b`.
    func of(_ color: UInt8, _ a: Int32, _ b: Int32) -> Int { bucket(color, group(a, b)) }
}

/// The awake joints' colours and solve order (`World.orderJoints`), kept from step to step.
///
/// Why: choosing joint colours is a serial pass over every joint record and both its bodies' (a
/// cache miss or two a joint): in joint_grid (19 800 joints) 0.26 ms of a 3.0 ms step on one
/// thread, and all of it still on one thread when the rest of the step runs on two. Box2D v3 keeps
/// its joints in its constraint graph from the step they wake to the step they sleep; here the
/// colours are kept while what they are chosen from stays the same, so they are always the ones a
/// fresh choice would make, bit for bit (debug builds check each kept graph against a fresh one).
/// They depend on which joints are alive, which of their bodies are awake and dynamic, and the
/// colours their bodies' contacts hold: `World.jointGraphChanged(body:)` is called wherever one of
/// those changes (joints linked or unlinked, bodies joining or leaving the awake list or changing
/// type, contact colours taken or freed on a jointed body, a restore).
struct KeptJointGraph: Equatable {
    /// Whether `list`, `slot` and `start` are those a fresh choice would make now.
    var isCurrent = false
    /// The joints with an awake body, in joint order.
    var list: [Int32] = []
    /// Each listed joint's place in solve order.
    var slot: [Int32] = []
    /// The first place of each colour: colour c is `start[c]..<start[c + 1]`.
    var start: [Int] = []
}

extension World {
    /// Marks the kept joint colours stale when `body` (or, for nil, anything) has joints.
    @inline(__always)
    func jointGraphChanged(body: Int32? = nil) {
        if let body, bodies[Int(body)].jointCount == 0 { return }
        jointGraph.isCurrent = false
    }

    /// Gives a contact that has begun touching its colour, and marks it taken on its dynamic
    /// bodies. Called in contact order from the serial part of the narrow phase, so the colours
    /// are the same whatever the thread count.
    func colorTouchingContact(_ ci: Int32) {
        let bp = bodies.base, c = contacts.base + Int(ci)
        let a = bp + Int(c.pointee.bodyA), b = bp + Int(c.pointee.bodyB)
        let dynamicA = a.pointee.type == .dynamic, dynamicB = b.pointee.type == .dynamic
        let takenA = a.pointee.contactColors, takenB = b.pointee.contactColors
        let color = ConstraintColoring.choose(takenA: takenA, takenB: takenB, dynamicA: dynamicA, dynamicB: dynamicB)
        c.pointee.color = UInt8(color)
        contactKeys.base[Int(ci)].color = UInt8(color)
        guard color != 0 else { return }
        let bit: UInt32 = 1 << UInt32(color)
        if dynamicA { a.pointee.contactColors |= bit }
        if dynamicB { b.pointee.contactColors |= bit }
        jointGraphChanged(body: c.pointee.bodyA)
        jointGraphChanged(body: c.pointee.bodyB)
    }

    /// Frees a contact's colour on its bodies (it stopped touching, or it is being destroyed). A
    /// body's type changes only after its contacts are gone, and only dynamic bodies hold colours,
    /// so the bit is this contact's on whichever of its bodies has it.
    func releaseContactColor(_ ci: Int32) {
        let c = contacts.base + Int(ci)
        let color = c.pointee.color
        c.pointee.color = 0
        contactKeys.base[Int(ci)].color = 0
        guard color != 0 else { return }
        let keep = ~(UInt32(1) << UInt32(color))
        let bp = bodies.base
        bp[Int(c.pointee.bodyA)].contactColors &= keep
        bp[Int(c.pointee.bodyB)].contactColors &= keep
        jointGraphChanged(body: c.pointee.bodyA)
        jointGraphChanged(body: c.pointee.bodyB)
    }

    /// Rebuilds every body's colours from its touching contacts (after a restore, which has
    /// checked that no dynamic body holds a colour twice). Contacts of a version 1 snapshot, which
    /// kept no colours, are coloured afresh in contact order (`fresh`).
    func rebuildContactColors(fresh: Bool) {
        jointGraphChanged()
        for i in bodies.indices { bodies[i].contactColors = 0 }
        for i in contacts.indices where contacts[i].isAlive && !contacts[i].isTouching { contacts[i].color = 0 }
        if fresh {
            for i in contacts.indices where contacts[i].isAlive && contacts[i].isTouching {
                colorTouchingContact(Int32(i))
            }
            return
        }
        let held = ConstraintColoring.heldColors(contacts, bodyCount: bodies.count) { bodies[Int($0)].type == .dynamic }
        for i in bodies.indices { bodies[i].contactColors = held.colors[i] }
    }
}

extension ConstraintColoring {
    /// The colours each dynamic body's touching contacts hold (bit k for colour k), and the first
    /// body that holds one colour twice, with that colour: its two contacts would be solved at
    /// once. Colours of 32 and up, which no valid contact has, are left out (the readers of
    /// snapshots and `World.validate` report them). The one reading of the graph from the
    /// contacts: a restore's check, the rebuild after it, and `World.validate`.
    static func heldColors(_ contacts: some Sequence<Contact>, bodyCount: Int,
                           isDynamic: (Int32) -> Bool) -> (colors: [UInt32], twice: (body: Int, color: UInt8)?) {
        var held = [UInt32](repeating: 0, count: bodyCount)
        var twice: (body: Int, color: UInt8)?
        for c in contacts where c.isAlive && c.isTouching && c.color != 0 && c.color < 32 {
            let bit: UInt32 = 1 << UInt32(c.color)
            for body in [c.bodyA, c.bodyB] where isDynamic(body) {
                if held[Int(body)] & bit != 0 && twice == nil { twice = (Int(body), c.color) }
                held[Int(body)] |= bit
            }
        }
        return (held, twice)
    }
}
