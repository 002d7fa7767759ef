@testable import DynamicsEngine
import Testing

/// The solve order's groups of rows (`ColorGroups`): within each colour, the constraints come
/// group by group, so a thread's share of every colour updates mostly the same bodies' rows. The
/// order within a colour changes no bit (the determinism suites' pinned hashes hold at 1, 2 and 3
/// threads); these tests check the grouping itself.
@Suite struct ColorGroupsTests {
    /// Overflow constraints stay in one group (they are solved in order); a pair's group is its
    /// rows' midpoint's, a pair with a body that is not awake takes the awake one's.
    @Test func bucketsFollowTheRows() {
        let g = ColorGroups(groups: 2, awakeCount: 100)
        #expect(g.count == ConstraintColoring.colorCount * 2)
        #expect(g.of(0, 10, 90) == 0)
        #expect(g.of(0, 60, 100) == 0)
        #expect(g.of(3, 10, 20) == 6)       // both rows in the first half
        #expect(g.of(3, 70, 80) == 7)       // both in the second
        #expect(g.of(3, 10, 80) == 6)       // midpoint 45
        #expect(g.of(3, 30, 90) == 7)       // midpoint 60
        #expect(g.of(5, 99, 100) == 11)     // against a body that is not awake: its own row
        #expect(g.of(5, 100, 3) == 10)
        let one = ColorGroups(groups: 1, awakeCount: 100)
        #expect(one.of(7, 99, 0) == 7)      // one thread: one group, the colour itself
        let many = ColorGroups(groups: 64, awakeCount: 5)
        #expect(many.groups == 16)
        #expect((0..<5).allSatisfy { many.of(1, Int32($0), 5) < 2 * many.groups })
    }

    /// Chains joined link by link across them, on two threads: in the joints' solve order (`KeptJointGraph`), each
    /// colour's joints are in non-decreasing group order, and both groups hold joints.
    @Test func jointsComeGroupByGroupWithinAColour() {
        var d = WorldDef()
        d.gravity = Vec2(0, 1000)
        d.workerCount = 2
        let w = World(def: d)
        // bodies chain by chain (rows in chain order), joints link by link across the chains, so
        // joint order alternates between the groups
        var anchors: [BodyID] = [], links: [[BodyID]] = []
        for c in 0..<8 {
            let x0 = -400 + Float(c) * 100
            anchors.append(addBox(w, .static, at: Vec2(x0, -100), half: Vec2(4, 4)))
            links.append((0..<20).map { i in addBox(w, at: Vec2(x0, -100 + Float(i) * 10 + 5), half: Vec2(2, 5)) })
        }
        for i in 0..<20 {
            for c in 0..<8 {
                var jd = JointDef(kind: .revolute)
                jd.bodyA = i == 0 ? anchors[c] : links[c][i - 1]; jd.bodyB = links[c][i]
                jd.localAnchorA = i == 0 ? .zero : Vec2(0, 5); jd.localAnchorB = Vec2(0, -5)
                #expect(w.createJoint(jd) != nil)
            }
        }
        w.step(dt: 1.0 / 60, substeps: 4)
        let graph = w.jointGraph
        let groups = ColorGroups(groups: 2, awakeCount: w.awakeBodyCount)
        // each listed joint's bucket, placed at its slot
        var bucketAt = [Int](repeating: -1, count: graph.list.count)
        for (k, ji) in graph.list.enumerated() {
            let joint = w.joints[Int(ji)]
            let a = w.bodies[Int(joint.bodyA)].awakeIndex, b = w.bodies[Int(joint.bodyB)].awakeIndex
            let color = (0..<ConstraintColoring.colorCount).first { graph.start[$0 + 1] > Int(graph.slot[k]) }!
            let asleep = Int32(groups.awakeCount)
            bucketAt[Int(graph.slot[k])] = groups.of(color, a >= 0 ? a : asleep, b >= 0 ? b : asleep)
        }
        #expect(!bucketAt.contains(-1))
        #expect(zip(bucketAt, bucketAt.dropFirst()).allSatisfy { $0 <= $1 }, "\(bucketAt)")
        let usedGroups = Set(bucketAt.filter { $0 >= groups.groups }.map { $0 % groups.groups })
        #expect(usedGroups == [0, 1])
    }
}
