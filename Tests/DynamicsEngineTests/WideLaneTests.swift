@testable import DynamicsEngine
import Testing

/// The wide contact solver's lane width (`WideLane.count`: 4 by default, 8 when built with
/// `-Xswiftc -DDYNAMICS_WIDE8`) changes no result.
///
/// Only one width is compiled into a build, so the test compares groupings within it: each colour's
/// contacts one per wide constraint (the other lanes padding), half the lanes filled (at eight
/// lanes: the four-lane build's groups), and all lanes filled. A colour holds no dynamic body twice
/// and every lane does the same float operations whatever its neighbours, so all three must end
/// with the same bits — which is what makes the four- and eight-lane builds agree (the benchmark
/// scenes' hashes are the same in both; `bench` prints the width).
@Suite struct WideLaneTests {
    /// A 16-row pyramid of 40 pt boxes on a static ground (136 boxes, about 390 touching contacts
    /// in 20-odd colours), sleep off. `restitution` and `blockSolve` reach the wide solver's
    /// restitution pass and its block solve.
    static func makePyramid(restitution: Float, blockSolve: Bool) -> World {
        var d = WorldDef()
        d.gravity = Vec2(0, 1000)
        d.enableSleep = false
        d.validate = false
        d.blockSolve = blockSolve
        let w = World(def: d)
        addBox(w, .static, at: Vec2(0, 50), half: Vec2(2000, 50))
        let rows = 16
        let size: Float = 40, h: Float = 20
        for i in 0..<rows {
            for j in i..<rows {
                let x = (Float(j) - 0.5 * Float(i) - 0.5 * Float(rows - 1)) * size
                addBox(w, at: Vec2(x, -h - Float(i) * size), half: Vec2(h, h), restitution: restitution)
            }
        }
        return w
    }

    /// 60 steps of the pyramid at each grouping end with the same state hash, bit for bit. The
    /// pyramid must really use the wide solver: more than `WideLane.count` contacts in most colours.
    @Test(arguments: [(Float(0), false), (Float(0.5), true)])
    func groupingIntoLanesChangesNoBit(restitution: Float, blockSolve: Bool) {
        var hashes: [Int: UInt64] = [:]
        for filled in [1, WideLane.count / 2, WideLane.count] {
            let w = Self.makePyramid(restitution: restitution, blockSolve: blockSolve)
            w.scratch.wideLanesFilled = filled
            run(w, steps: 60)
            hashes[filled] = w.stateHash()
            let colours = w.lastColorCounts.dropFirst()   // slot 0 is the scalar overflow
            #expect(colours.reduce(0, +) > 300, "touching contacts in colours: \(colours.reduce(0, +))")
            let wider = colours.filter { $0 > WideLane.count }.count
            #expect(wider >= 4, "colours wider than a constraint: \(Array(colours))")
        }
        let all = hashes[WideLane.count]!
        for (filled, hash) in hashes.sorted(by: { $0.key < $1.key }) {
            let got = String(hash, radix: 16), whole = String(all, radix: 16)
            #expect(hash == all, "\(filled) contact(s) per wide constraint: \(got), all \(WideLane.count): \(whole)")
        }
    }

    /// The width is 4 or 8, and every field of a wide constraint is one lane vector, so padding a
    /// lane (`WideContact.padLane`) reaches every field at the right byte offset.
    @Test func everyFieldIsOneLaneVector() {
        #expect(WideLane.count == 4 || WideLane.count == 8)
        #expect(World.contactLaneCount == WideLane.count)
        #expect(MemoryLayout<WideContact>.size % WideLane.fieldStride == 0)
        #expect(MemoryLayout<LaneIndices>.stride == WideLane.fieldStride)
        // a padded lane reads zero mass, the shared zero body and no contact; its neighbours keep theirs
        let p = UnsafeMutablePointer<WideContact>.allocate(capacity: 1)
        defer { p.deallocate() }
        p.initialize(to: WideContact())
        p.pointee.mA = Lanes(repeating: 2)
        p.pointee.found = LaneIndices(repeating: 7)
        let last = WideLane.count - 1
        WideContact.padLane(p, last, dummy: 99)
        #expect(p.pointee.mA[last] == 0 && p.pointee.mA[0] == 2)
        #expect(p.pointee.a[last] == 99 && p.pointee.b[last] == 99 && p.pointee.a[0] == 0)
        #expect(p.pointee.found[last] == -1 && p.pointee.found[0] == 7)
        #expect(p.pointee.massScale[last] == 1 && p.pointee.k11[last] == 1 && p.pointee.k22[last] == 1)
    }
}
