/// A record that lives in a ``SlotPool``: it says whether its slot is in use, so that loops over
/// every slot can skip free ones without a second lookup.
protocol PoolElement {
    init()
    var isAlive: Bool { get set }
}

/// The storage of the world's bodies, shapes, contacts and joints: one contiguous block of slots
/// with its free list and generations, the only place where a slot is handed out, given back or
/// checked against an id.
///
/// Why one type: the four pools were written out four times (free list, generation bump, validity
/// check), and each subscript write through a class's array property cost a dynamic exclusivity
/// check, which the step dodged with nested `withUnsafe…` closures. Here the slots sit behind a
/// pointer: an element is read and written in place (`pool[i].field = x`) without copy-on-write
/// or exclusivity checks, and ``base`` gives the step a raw view.
///
/// Rules:
/// - A freed slot is reused before a new one is added, most recently freed first. The order in
///   which slots are reused decides every index in the world, so it is part of determinism: the
///   pinned state hashes depend on it.
/// - A reused slot's generation goes up by one (wrapping), so an id of its former occupant no
///   longer validates. Contacts are never handed out by id; their generations are kept all the
///   same and not saved in snapshots.
/// - ``base`` and any pointer into the pool stay valid only until the next ``insert(_:)``,
///   which may move the block. A view must not escape the phase that took it (the step takes its
///   views after the pair search, the only phase of a step that inserts).
/// - Indices are checked in debug builds only; every index the engine uses comes from its own
///   links, which the validation walk (`World.validate`) and snapshot restore check.
final class SlotPool<Element: PoolElement>: RandomAccessCollection {
    private(set) var base: UnsafeMutablePointer<Element>
    private var capacity: Int
    /// Slots in use and free ones: the valid indices are `0..<count`.
    private(set) var count = 0
    /// Each slot's generation, bumped when the slot is reused (beside the slots, same capacity:
    /// behind a pointer, the validity check costs no exclusivity or bounds check).
    private var generationBase: UnsafeMutablePointer<UInt32>
    /// Free slots, the next to reuse last.
    private(set) var freeList: [Int32] = []

    init() {
        capacity = 16
        base = .allocate(capacity: capacity)
        generationBase = .allocate(capacity: capacity)
    }

    deinit {
        base.deinitialize(count: count)
        base.deallocate()
        generationBase.deallocate()
    }

    /// Each slot's generation, in slot order (for snapshots).
    var generations: [UInt32] { Array(UnsafeBufferPointer(start: generationBase, count: count)) }

    var startIndex: Int { 0 }
    var endIndex: Int { count }

    /// Slots in use.
    var liveCount: Int { count - freeList.count }

    subscript(i: Int) -> Element {
        unsafeAddress {
            assert(i >= 0 && i < count, "slot \(i) outside 0..<\(count)")
            return UnsafePointer(base + i)
        }
        unsafeMutableAddress {
            assert(i >= 0 && i < count, "slot \(i) outside 0..<\(count)")
            return base + i
        }
    }

    /// Puts `element` (marked alive) in the most recently freed slot, or a new one at the end.
    func insert(_ element: Element) -> Int32 {
        var e = element
        e.isAlive = true
        if let f = freeList.popLast() {
            generationBase[Int(f)] &+= 1
            base[Int(f)] = e
            return f
        }
        if count == capacity { grow(to: capacity * 2) }
        (base + count).initialize(to: e)
        generationBase[count] = 0
        count += 1
        return Int32(count - 1)
    }

    /// Marks slot `i` free; its record stays readable (and dead) until the slot is reused.
    func remove(_ i: Int32) {
        assert(base[Int(i)].isAlive, "slot \(i) freed twice")
        base[Int(i)].isAlive = false
        freeList.append(i)
    }

    func generation(_ i: Int32) -> UInt32 {
        assert(i >= 0 && Int(i) < count, "slot \(i) outside 0..<\(count)")
        return generationBase[Int(i)]
    }

    /// Whether `index` names a live slot whose generation is `generation`: the one validity check
    /// behind every id the engine hands out.
    func isValid(_ index: Int32, generation: UInt32) -> Bool {
        index >= 0 && Int(index) < count && base[Int(index)].isAlive && generationBase[Int(index)] == generation
    }

    /// Replaces every slot (a snapshot restore): `elements`, their `generations`, and the free list
    /// in reuse order. The caller has checked that `free` names exactly the dead slots.
    func replaceAll(elements: [Element], generations: [UInt32], free: [Int32]) {
        assert(elements.count == generations.count, "a generation per slot")
        base.deinitialize(count: count)
        count = 0
        if elements.count > capacity { grow(to: elements.count) }
        for (i, e) in elements.enumerated() { (base + i).initialize(to: e) }
        for (i, g) in generations.enumerated() { generationBase[i] = g }
        count = elements.count
        freeList = free
    }

    private func grow(to newCapacity: Int) {
        let grown = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
        grown.moveInitialize(from: base, count: count)
        base.deallocate()
        base = grown
        let grownGenerations = UnsafeMutablePointer<UInt32>.allocate(capacity: newCapacity)
        grownGenerations.update(from: generationBase, count: count)
        generationBase.deallocate()
        generationBase = grownGenerations
        capacity = newCapacity
    }
}
