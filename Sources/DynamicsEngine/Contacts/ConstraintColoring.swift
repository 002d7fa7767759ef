/// Greedy graph colouring of the step's constraints (Box2D v3's scheme, recomputed each step).
///
/// Within one colour no dynamic body appears twice, so a colour's constraints are independent: they
/// can be solved in any order, in SIMD lanes or on several threads, with the same result. Colour 0 of
/// the layout is the overflow set (constraints that found no free colour); dynamic–dynamic
/// constraints take colours from the low end, constraints against static or kinematic bodies from
/// the high end, so in each Gauss–Seidel pass the immovable side has the last word (less
/// push-through). Solving overflow first and then colours in order reproduces Box2D's order.
final class ConstraintColoring {
    /// Overflow + 23 colours.
    static let colorCount = 24
    static let dynamicColorLimit = 20
    private let words: Int
    private var bits: UnsafeMutablePointer<UInt64>

    init(bodyCount: Int) {
        words = (bodyCount + 64) / 64
        bits = .allocate(capacity: words * ConstraintColoring.colorCount)
        bits.initialize(repeating: 0, count: words * ConstraintColoring.colorCount)
    }

    func release() { bits.deallocate() }

    @inline(__always) private func test(_ color: Int, _ body: Int32) -> Bool {
        (bits[color * words + Int(body >> 6)] >> UInt64(body & 63)) & 1 != 0
    }
    @inline(__always) private func set(_ color: Int, _ body: Int32) {
        bits[color * words + Int(body >> 6)] |= 1 << UInt64(body & 63)
    }

    /// Returns the layout slot: 0 = overflow, 1… = colours in solve order.
    func assign(_ a: Int32, _ b: Int32, dynamicA: Bool, dynamicB: Bool) -> Int32 {
        let n = ConstraintColoring.colorCount
        if dynamicA && dynamicB {
            for c in 1...ConstraintColoring.dynamicColorLimit where !test(c, a) && !test(c, b) {
                set(c, a); set(c, b)
                return Int32(c)
            }
        } else if dynamicA || dynamicB {
            let d = dynamicA ? a : b
            var c = n - 1
            while c >= 2 {
                if !test(c, d) { set(c, d); return Int32(c) }
                c -= 1
            }
        }
        return 0
    }
}
