/// A growable block of plain values reused from step to step, so per-step arrays cost neither an
/// allocation nor fresh pages (which the kernel would zero on first touch) every step.
/// Only for trivial types (plain structs of numbers).
final class ScratchBuffer<Element> {
    private(set) var pointer: UnsafeMutablePointer<Element>
    private(set) var capacity: Int

    init() {
        capacity = 16
        pointer = .allocate(capacity: capacity)
    }

    deinit { pointer.deallocate() }

    /// A buffer of at least `count` elements, every one set to `value`.
    func reset(count: Int, to value: Element) -> UnsafeMutablePointer<Element> {
        if count > capacity {
            pointer.deallocate()
            capacity = max(count, capacity * 2)
            pointer = .allocate(capacity: capacity)
        }
        pointer.initialize(repeating: value, count: count)
        return pointer
    }

    /// A buffer of at least `count` elements whose contents are left from earlier use: the caller
    /// writes every element it reads (the element type is trivial, so nothing needs deinitialising).
    func reserve(count: Int) -> UnsafeMutablePointer<Element> {
        if count > capacity {
            pointer.deallocate()
            capacity = max(count, capacity * 2)
            pointer = .allocate(capacity: capacity)
        }
        return pointer
    }
}
