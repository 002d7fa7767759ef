@testable import DynamicsEngine
import Foundation
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

    /// A full wide constraint prepared at once (`WideContact.prepareAll`, vector arithmetic) is
    /// the same bytes as its lanes prepared one by one (`prepareLane`, the scalar arithmetic), on
    /// awkward inputs: one- and two-point manifolds, lanes on a static body (zero mass), a contact
    /// between two static records (zero effective mass: no division by it), and softness that
    /// differs for static pairs; with and without the block solve's fields.
    @Test(arguments: [false, true])
    func preparingAllLanesAtOnceMatchesLaneByLane(blockSolve: Bool) {
        var rng = SplitMix64(seed: 2711)
        func value(_ scale: Float) -> Float { (Float(rng.next() % 20_001) / 10_000 - 1) * scale }
        let bodyCount = 6   // 0…4 dynamic; 5 the shared zero record of static bodies
        var sims = [BodyStepData](repeating: BodyStepData(), count: bodyCount)
        var states = [BodyState](repeating: BodyState(), count: bodyCount)
        for k in 0..<5 {
            sims[k].invMass = 0.5 + abs(value(2)); sims[k].invI = 0.001 + abs(value(0.01)); sims[k].isDynamic = true
            states[k].v = Vec2(value(300), value(300)); states[k].w = value(5)
        }
        let softness = Softness(hertz: 30, zeta: 10, h: 1 / 240)
        let staticSoftness = Softness(hertz: 60, zeta: 10, h: 1 / 240)
        for round in 0..<16 {
            // zero bytes are a valid record of these plain structs; the fields are then set one by one
            let bytes = MemoryLayout<ContactInput>.stride * WideLane.count
            let align = MemoryLayout<ContactInput>.alignment
            let raw = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: align)
            raw.initializeMemory(as: UInt8.self, repeating: 0, count: bytes)
            let inputs = raw.bindMemory(to: ContactInput.self, capacity: WideLane.count)
            defer { raw.deallocate() }
            for l in 0..<WideLane.count {
                // the first lane of the first round between two static records; else any pair
                let bothStatic = round == 0 && l == 0
                let a = bothStatic ? Int32(5) : Int32(rng.next() % 6), b = bothStatic ? Int32(5) : Int32(rng.next() % 5)
                inputs[l].solved.a = a; inputs[l].solved.b = b
                inputs[l].solved.isStaticPair = a == 5 || b == 5
                inputs[l].found = Int32(round * WideLane.count + l)
                inputs[l].pointCount = 1 + Int32(rng.next() % 2)
                let angle = value(3.2)
                inputs[l].normal = Vec2(cos(angle), sin(angle))
                inputs[l].friction = abs(value(1)); inputs[l].restitution = abs(value(1))
                for p in [\ContactInput.p0, \ContactInput.p1] {
                    inputs[l][keyPath: p].anchorA = Vec2(value(40), value(40))
                    inputs[l][keyPath: p].anchorB = Vec2(value(40), value(40))
                    inputs[l][keyPath: p].separation = value(2)
                    inputs[l][keyPath: p].normalImpulse = abs(value(50))
                    inputs[l][keyPath: p].tangentImpulse = value(20)
                }
            }
            let whole = UnsafeMutablePointer<WideContact>.allocate(capacity: 1)
            let byLane = UnsafeMutablePointer<WideContact>.allocate(capacity: 1)
            let wholeExtras = UnsafeMutablePointer<WideContactExtras>.allocate(capacity: 1)
            let byLaneExtras = UnsafeMutablePointer<WideContactExtras>.allocate(capacity: 1)
            defer { whole.deallocate(); byLane.deallocate(); wholeExtras.deallocate(); byLaneExtras.deallocate() }
            whole.initialize(to: WideContact()); byLane.initialize(to: WideContact())
            wholeExtras.initialize(to: WideContactExtras()); byLaneExtras.initialize(to: WideContactExtras())
            sims.withUnsafeBufferPointer { simBuffer in
                states.withUnsafeBufferPointer { stateBuffer in
                    let sims = simBuffer.baseAddress!, states = stateBuffer.baseAddress!
                    WideContact.prepareAll(
                        whole, wholeExtras, inputs, sims: sims, states: states, softness: softness, staticSoftness: staticSoftness,
                        block: blockSolve)
                    for l in 0..<WideLane.count {
                        let laneSoftness = inputs[l].solved.isStaticPair ? staticSoftness : softness
                        WideContact.prepareLane(
                            byLane, byLaneExtras, l, inputs + l, sims: sims, states: states, softness: laneSoftness, block: blockSolve)
                    }
                }
            }
            let size = MemoryLayout<WideContact>.size, extrasSize = MemoryLayout<WideContactExtras>.size
            let same = memcmp(UnsafeRawPointer(whole), UnsafeRawPointer(byLane), size) == 0
            let sameExtras = memcmp(UnsafeRawPointer(wholeExtras), UnsafeRawPointer(byLaneExtras), extrasSize) == 0
            #expect(same, "round \(round): the two preparations differ")
            #expect(sameExtras, "round \(round): the two preparations' extras differ")
        }
    }

    /// Each thread's trash record lies inside the reserved records and at least 128 bytes (a pair
    /// of cache lines) from the dummy that static lanes read and from every other thread's: the
    /// reason they are apart (`StepContext.trash(thread:)`).
    @Test(arguments: [1, 2, 3, 16, 64])
    func trashRecordsLieApart(threads: Int) {
        let stride = MemoryLayout<BodyState>.stride
        for awake in [0, 1, 7, 1_000] {
            let records = [awake] + (0..<threads).map { StepContext.trashIndex(awake: awake, thread: $0) }
            let reserved = StepContext.stateCount(awake: awake, threads: threads)
            #expect(records.allSatisfy { $0 >= awake && $0 < reserved })
            for i in records.indices {
                for j in records.indices where j > i {
                    #expect(abs(records[i] - records[j]) * stride >= 128)
                }
            }
        }
    }

    /// The width is 4 or 8, and every field of a wide constraint is one lane vector, so padding a
    /// lane (`WideContact.padLane`) reaches every field at the right byte offset.
    @Test func everyFieldIsOneLaneVector() {
        #expect(WideLane.count == 4 || WideLane.count == 8)
        #expect(World.contactLaneCount == WideLane.count)
        #expect(MemoryLayout<WideContact>.size % WideLane.fieldStride == 0)
        #expect(MemoryLayout<WideContactExtras>.size % WideLane.fieldStride == 0)
        #expect(MemoryLayout<LaneIndices>.stride == WideLane.fieldStride)
        // what the sub-steps read is whole cache lines: 8 of them (16 at eight lanes)
        #expect(MemoryLayout<WideContact>.stride == 128 * WideLane.count)
        // a padded lane reads zero mass, the shared zero body and no contact; its neighbours keep theirs
        let p = UnsafeMutablePointer<WideContact>.allocate(capacity: 1)
        let x = UnsafeMutablePointer<WideContactExtras>.allocate(capacity: 1)
        defer { p.deallocate(); x.deallocate() }
        p.initialize(to: WideContact())
        x.initialize(to: WideContactExtras())
        p.pointee.mA = Lanes(repeating: 2)
        x.pointee.found = LaneIndices(repeating: 7)
        x.pointee.restitution = Lanes(repeating: 0.5)
        let last = WideLane.count - 1
        WideContact.padLane(p, x, last, dummy: 99)
        #expect(p.pointee.mA[last] == 0 && p.pointee.mA[0] == 2)
        #expect(p.pointee.a[last] == 99 && p.pointee.b[last] == 99 && p.pointee.a[0] == 0)
        #expect(x.pointee.found[last] == -1 && x.pointee.found[0] == 7)
        #expect(x.pointee.restitution[last] == 0 && x.pointee.restitution[0] == 0.5)
        #expect(p.pointee.massScale[last] == 1 && x.pointee.k11[last] == 1 && x.pointee.k22[last] == 1)
    }
}
