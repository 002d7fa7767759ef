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
    /// Per body (awake index, and the shared zero record after them), the colours it is in: bit c
    /// for colour c. One word per body makes a colour choice one or two loads and a bit scan; a
    /// bitset per colour took two bit tests per colour tried.
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

    /// Returns the layout slot: 0 = overflow, 1… = colours in solve order.
    @inline(__always)
    func assign(_ a: Int32, _ b: Int32, dynamicA: Bool, dynamicB: Bool) -> Int32 {
        if dynamicA && dynamicB {
            let free = ~(masks[Int(a)] | masks[Int(b)]) & ConstraintColoring.dynamicColors
            if free != 0 {
                let bit: UInt32 = 1 << UInt32(free.trailingZeroBitCount)
                masks[Int(a)] |= bit; masks[Int(b)] |= bit
                return Int32(free.trailingZeroBitCount)
            }
        } else if dynamicA || dynamicB {
            let d = Int(dynamicA ? a : b)
            let free = ~masks[d] & ConstraintColoring.staticColors
            if free != 0 {
                let c = 31 - free.leadingZeroBitCount
                masks[d] |= 1 << UInt32(c)
                return Int32(c)
            }
        }
        return 0
    }
}
