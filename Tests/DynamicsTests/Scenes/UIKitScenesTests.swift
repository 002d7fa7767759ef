import Dynamics
import DynamicsScenes
import Foundation
import Testing

@Suite("UIKit scene catalogue")
struct UIKitScenesTests {
    /// Every catalogue scene builds, and 60 steps later every item is finite.
    @Test(arguments: UIKitScenes.all.map(\.name))
    func sceneBuildsAndSteps(_ name: String) throws {
        let scene = try #require(UIKitScenes.named(name))
        let instance = scene.make()
        #expect(instance.animator.referenceBounds == scene.referenceBounds)
        #expect(instance.animator.diagnostics.isEmpty, "\(instance.animator.diagnostics)")
        for k in 0 ..< 60 { instance.step(frame: k) }
        #expect(!instance.items.isEmpty)
        #expect(instance.allItemsFinite)
        #expect(instance.animator.diagnostics.isEmpty, "\(instance.animator.diagnostics)")
        #expect(instance.animator.elapsedTime <= 1 + 1e-9)
    }

    /// Two builds of a scene evolve bit for bit alike.
    @Test(arguments: UIKitScenes.all.map(\.name))
    func sceneIsDeterministic(_ name: String) throws {
        let scene = try #require(UIKitScenes.named(name))
        let a = scene.make(), b = scene.make()
        for k in 0 ..< 30 {
            a.step(frame: k)
            b.step(frame: k)
        }
        #expect(a.stateHash == b.stateHash)
        #expect(a.items.count == b.items.count)
    }

    @Test func namesAreUniqueAndCommandLineFriendly() {
        let names = (UIKitScenes.all + UIKitBenchmarkScenes.scenes).map(\.name)
        #expect(Set(names).count == names.count)
        for name in names {
            #expect(name.allSatisfy { $0.isLowercase || $0 == "_" || $0.isNumber }, "\(name)")
        }
        #expect(UIKitScenes.catalog.count == 10)
        #expect(UIKitScenes.named(UIKitScenes.defaultScene.name) != nil)
        #expect(UIKitScenes.named("no such scene") == nil)
    }

    // MARK: Physics the scenes rely on

    /// Gravity accelerates every mass alike: the three items of `gravity` fall in step, by
    /// Σ k·g·h² = g·h²·N(N+1)/2 after N = 4n sub-steps of h = 1/240 s (n steps of 1/60 s with 4
    /// sub-steps) of the semi-implicit integrator: 126.04 pt after 30 steps.
    @Test func gravityItemsFallInStep() throws {
        let instance = try #require(UIKitScenes.named("gravity")).make()
        let starts = instance.items.map(\.center.y)
        for k in 0 ..< 30 { instance.step(frame: k) }
        let h = 1.0 / 240, n = 4.0 * 30
        let expected = 1000 * h * h * n * (n + 1) / 2
        for (item, start) in zip(instance.items, starts) {
            #expect(abs(Double(item.center.y - start) - expected) < 0.01, "\(item.center.y - start) vs \(expected)")
        }
    }

    /// The pendulum's rods keep their length while the weights swing.
    @Test func pendulumRodsKeepTheirLength() throws {
        let instance = try #require(UIKitScenes.named("pendulum")).make()
        let pivots = [CGPoint(x: 230, y: 40), CGPoint(x: 430, y: 40)]
        let lengths = zip(instance.items, pivots).map { hypot($0.center.x - $1.x, $0.center.y - $1.y) }
        var moved: CGFloat = 0
        for k in 0 ..< 120 {
            instance.step(frame: k)
            for ((item, pivot), length) in zip(zip(instance.items, pivots), lengths) {
                #expect(abs(hypot(item.center.x - pivot.x, item.center.y - pivot.y) - length) < 1)
            }
            moved = max(moved, abs(instance.items[0].center.x - (230 + 150 * sin(1.0))))
        }
        #expect(moved > 100, "the short pendulum swings")
    }

    /// The same upward impulse lifts the light box (density 1) much higher than the heavy one
    /// (density 8): Δv = 100 · 1.5 / mass, height = Δv² / 2g.
    @Test func lightBoxJumpsHigherThanHeavyBox() throws {
        let instance = try #require(UIKitScenes.named("item_properties")).make()
        let light = try #require(instance.items.first { ($0 as? BasicDynamicItem)?.name == "density 1" })
        let heavy = try #require(instance.items.first { ($0 as? BasicDynamicItem)?.name == "density 8" })
        var lightTop = light.center.y, heavyTop = heavy.center.y
        for k in 0 ..< 90 {
            instance.step(frame: k)
            lightTop = min(lightTop, light.center.y)
            heavyTop = min(heavyTop, heavy.center.y)
        }
        let lightRise = 375 - lightTop, heavyRise = 375 - heavyTop
        // 600 pt/s → 180 pt; 75 pt/s → 2.8 pt.
        #expect(lightRise > 150 && lightRise < 200, "\(lightRise)")
        #expect(heavyRise < 6, "\(heavyRise)")
    }

    /// Newton's cradle passes the impact along: the last ball swings out while the first stops.
    @Test func newtonsCradlePassesTheImpactAlong() throws {
        let instance = try #require(UIKitScenes.named("newtons_cradle")).make()
        let last = instance.items[4]
        let rest = last.center.x
        var farthest: CGFloat = 0
        for k in 0 ..< 90 {
            instance.step(frame: k)
            farthest = max(farthest, last.center.x - rest)
        }
        #expect(farthest > 50, "\(farthest)")
    }

    /// The custom item is a user class; the animator writes its center, which it records.
    @Test func customItemRecordsItsTrail() throws {
        let instance = try #require(UIKitScenes.named("custom_item")).make()
        for k in 0 ..< 40 { instance.step(frame: k) }
        let token = try #require(instance.items.first as? HexagonToken)
        #expect(token.trail.count == 32)
        #expect(token.trail.last == token.center)
    }

    /// The rain scene keeps adding items until 140 have fallen.
    @Test func rainAddsItemsOverTime() throws {
        let instance = try #require(UIKitScenes.named("rain")).make()
        #expect(instance.items.isEmpty)
        for k in 0 ..< 100 { instance.step(frame: k) }
        #expect(instance.items.count == 20)
        #expect(instance.animator.statistics.items == 20)
        #expect(instance.contacts.began > 0)
    }

    // MARK: Benchmark scenes

    @Test func benchmarkScenesMatchBenchmarksMd() {
        let entries = UIKitBenchmarkScenes.all
        #expect(entries.map(\.name) == ["ui_rain", "ui_fields", "ui_chains"])
        #expect(entries.map(\.steps) == [600, 600, 600])
        #expect(BenchmarkScene.all.suffix(3).map(\.name) == ["ui_rain", "ui_fields", "ui_chains"])

        let rain = UIKitBenchmarkScenes.scenes[0].make()
        #expect(rain.items.count == 2000)
        #expect(rain.items.enumerated().allSatisfy { k, item in
            item.collisionBoundsType == (k % 3 == 2 ? .ellipse : .rectangle)
                && (12 ... 40).contains(item.bounds.width) && (12 ... 40).contains(item.bounds.height)
        })
        let fields = UIKitBenchmarkScenes.scenes[1].make()
        #expect(fields.items.count == 10_000)
        #expect(fields.items.allSatisfy { $0.bounds.size == CGSize(width: 4, height: 4) })
        let chains = UIKitBenchmarkScenes.scenes[2].make()
        #expect(chains.items.count == 1200)
    }

    /// Each benchmark world steps, counts its bodies and joints, and hashes reproducibly.
    @Test(arguments: ["ui_rain", "ui_chains", "ui_fields"])
    func benchmarkWorldsStepAndHashReproducibly(_ name: String) throws {
        let entry = try #require(UIKitBenchmarkScenes.all.first { $0.name == name })
        let a = entry.make(1), b = entry.make(1)
        for k in 0 ..< 3 {
            a.step(index: k)
            b.step(index: k)
        }
        #expect(a.stateHash == b.stateHash)
        #expect(a.bodyCount == [ "ui_rain": 2000, "ui_fields": 10_000, "ui_chains": 1200 ][name])
        #expect(a.jointCount == (name == "ui_chains" ? 1200 : 0))
        #expect(a.awakeBodyCount == a.bodyCount)
        if name == "ui_rain" { #expect(a.contactCount > 0) }
    }

    @Test func stateHashIsFNV1aOverCenterAndAngleBits() {
        let instance = UIKitSceneInstance(name: "one", referenceBounds: CGRect(x: 0, y: 0, width: 10, height: 10))
        instance.track(BasicDynamicItem(center: CGPoint(x: 1.5, y: -2), size: CGSize(width: 1, height: 1)))
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for value in [1.5, -2.0, 0.0] {
            var bits = value.bitPattern
            for _ in 0 ..< 8 {
                hash = (hash ^ (bits & 0xFF)) &* 0x0000_0100_0000_01B3
                bits >>= 8
            }
        }
        #expect(instance.stateHash == hash)
    }
}
