// Unit tests of the pure model (no ESPHome); built and run by run-model-tests next to this file.
// A minimal assert-based runner: prints each failing case (every case with -v) and
// "N passed, M failed", and exits non-zero when a case fails.
#include "../../components/linn_remote/linn_remote_model.h"

#include <cstdio>
#include <functional>
#include <sstream>

using namespace linn_model;

static int g_failed_checks = 0;
static std::vector<std::pair<const char *, std::function<void()>>> &registry() {
  static std::vector<std::pair<const char *, std::function<void()>>> r;
  return r;
}
struct Reg {
  Reg(const char *n, std::function<void()> f) { registry().emplace_back(n, std::move(f)); }
};
#define TEST(name)                          \
  static void name();                       \
  static Reg reg_##name(#name, name);       \
  static void name()
#define CHECK(cond)                                                              \
  do {                                                                           \
    if (!(cond)) {                                                               \
      std::printf("  %s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);     \
      g_failed_checks++;                                                         \
    }                                                                            \
  } while (0)
#define CHECK_EQ(a, b)                                                                              \
  do {                                                                                              \
    auto va_ = (a);                                                                                 \
    auto vb_ = (b);                                                                                 \
    if (!(va_ == vb_)) {                                                                            \
      std::ostringstream os_;                                                                       \
      os_ << va_ << " != " << vb_;                                                                  \
      std::printf("  %s:%d: CHECK_EQ(%s, %s) failed: %s\n", __FILE__, __LINE__, #a, #b, os_.str().c_str()); \
      g_failed_checks++;                                                                            \
    }                                                                                               \
  } while (0)

static std::string describe(const std::vector<Action> &acts) {
  std::string s;
  for (auto &a : acts) {
    s += a.action + "(";
    for (auto &kv : a.data) s += kv.first + "=" + kv.second + ",";
    s += ") ";
  }
  return s;
}

static Model playing_model(Config cfg = Config()) {
  cfg.entity_id = "media_player.linn_klimax";
  Model m(cfg);
  m.set_state("playing");
  m.set_title("So What");
  m.set_artist("Miles Davis");
  m.set_volume("0.4");
  m.set_source("Playlist");
  m.set_source_list("['Playlist', 'Radio', \"Linn's TV\", 'Spotify']");
  m.touch(0);
  return m;
}

TEST(parses_states_and_attributes) {
  CHECK(parse_player_state("playing") == PlayerState::PLAYING);
  CHECK(parse_player_state("off") == PlayerState::OFF);
  CHECK(parse_player_state("paused") == PlayerState::PAUSED);
  CHECK(parse_player_state("bogus") == PlayerState::UNKNOWN);
  int pm = -1;
  CHECK(parse_volume_pm("0.4", &pm));
  CHECK_EQ(pm, 400);
  CHECK(parse_volume_pm("1.7", &pm));
  CHECK_EQ(pm, 1000);  // clamped
  CHECK(!parse_volume_pm("abc", &pm));
  CHECK(!parse_volume_pm("", &pm));
  CHECK(!parse_volume_pm("0.4x", &pm));
  CHECK_EQ(format_volume(420), std::string("0.42"));
  CHECK_EQ(format_volume(425), std::string("0.425"));
  CHECK_EQ(format_volume(1000), std::string("1.0"));
  CHECK_EQ(format_volume(0), std::string("0.0"));
  auto l = parse_list("['Playlist', 'Radio', \"Linn's TV\", 'It\\'s']");
  CHECK_EQ(l.size(), 4u);
  CHECK_EQ(l[2], std::string("Linn's TV"));
  CHECK_EQ(l[3], std::string("It's"));
  CHECK(parse_list("[]").empty());
  CHECK_EQ(parse_list("[\"a\", \"b\"]").size(), 2u);
  CHECK(parse_bool("on"));
  CHECK(parse_bool("True"));
  CHECK(!parse_bool("off"));
}

TEST(state_updates_bump_version_only_on_change) {
  Model m = playing_model();
  uint32_t v = m.version();
  m.set_title("So What");
  CHECK_EQ(m.version(), v);
  m.set_title("Blue in Green");
  CHECK(m.version() != v);
  CHECK_EQ(m.title(), std::string("Blue in Green"));
  CHECK(!m.set_volume("nan?"));
  CHECK_EQ(m.ha_volume_pm(), 400);
}

TEST(standby_forgets_stale_title) {
  Model m = playing_model();
  m.set_state("off");
  CHECK(!m.is_on());
  CHECK(m.title().empty());
  CHECK(m.artist().empty());
  m.set_state("playing");
  CHECK(m.title().empty());  // HA did not send a title: none shown
}

TEST(volume_first_detent_is_sent_at_once_as_absolute_level) {
  Model m = playing_model();
  CHECK(m.turn(1, 1000));
  auto a = m.take_actions();
  CHECK_EQ(a.size(), 1u);
  Action want{"media_player.volume_set", {{"entity_id", "media_player.linn_klimax"}, {"volume_level", "0.42"}}};
  CHECK(a[0] == want);
}

TEST(volume_turns_are_coalesced_while_turning) {
  Model m = playing_model();
  m.turn(1, 1000);  // sends 0.42 at once
  m.take_actions();
  for (uint32_t t = 1010; t < 1200; t += 20) m.turn(1, t);  // 10 more detents within 250 ms
  CHECK(m.take_actions().empty());
  CHECK_EQ(m.shown_volume_pm(), 620);
  m.tick(1249);
  CHECK(m.take_actions().empty());
  m.tick(1250);
  auto a = m.take_actions();
  CHECK_EQ(a.size(), 1u);
  if (a.size() == 1) CHECK_EQ(a[0].data[1].second, std::string("0.62"));
  m.tick(1600);
  CHECK(m.take_actions().empty());  // nothing new: no repeat
}

TEST(fast_spin_sends_at_most_one_call_per_interval) {
  Config cfg;
  cfg.volume_step_pm = 10;
  Model m = playing_model(cfg);
  m.set_volume("0.0");
  std::vector<Action> all;
  for (uint32_t t = 0; t < 1980; t += 10) {
    if (t % 20 == 0) m.turn(1, 5000 + t);  // 99 detents in 2 s
    m.tick(5000 + t);
    for (auto &a : m.take_actions()) all.push_back(a);
  }
  m.tick(9000);
  for (auto &a : m.take_actions()) all.push_back(a);
  // one call per 250 ms (8 in 2 s) plus the trailing one, never one per detent
  CHECK(all.size() <= 10u);
  CHECK(all.size() >= 8u);
  if (!all.empty()) CHECK_EQ(all.back().data[1].second, std::string("0.99"));
}

TEST(volume_is_clamped_to_0_and_max) {
  Config cfg;
  cfg.max_volume_pm = 800;
  Model m = playing_model(cfg);
  m.set_volume("0.78");
  m.turn(5, 1000);
  auto a = m.take_actions();
  CHECK_EQ(a.size(), 1u);
  if (!a.empty()) CHECK_EQ(a[0].data[1].second, std::string("0.8"));
  m.turn(-1, 1300);  // clamping does not wind up: one detent back is one step below the max
  m.tick(1300);
  a = m.take_actions();
  CHECK_EQ(a.size(), 1u);
  if (!a.empty()) CHECK_EQ(a[0].data[1].second, std::string("0.78"));
  m.tick(5000);
  m.set_volume("0.02");
  m.turn(-3, 6000);
  a = m.take_actions();
  CHECK_EQ(a.size(), 1u);
  if (!a.empty()) CHECK_EQ(a[0].data[1].second, std::string("0.0"));
  m.tick(9000);
  m.take_actions();
  m.set_volume("0.0");
  m.turn(-1, 10000);  // already at 0: nothing to send
  m.tick(10500);
  CHECK(m.take_actions().empty());
}

TEST(no_drift_when_volume_changed_elsewhere) {
  Model m = playing_model();
  m.turn(2, 1000);  // 0.44
  m.tick(3000);     // gesture settles
  CHECK(!m.turning());
  m.take_actions();
  m.set_volume("0.44");  // echo
  m.set_volume("0.25");  // someone used the app
  CHECK_EQ(m.shown_volume_pm(), 250);
  m.turn(1, 4000);
  auto a = m.take_actions();
  CHECK_EQ(a.size(), 1u);
  if (!a.empty()) CHECK_EQ(a[0].data[1].second, std::string("0.27"));  // from 0.25, not 0.44
}

TEST(echo_during_gesture_does_not_lose_detents) {
  Model m = playing_model();
  m.turn(1, 1000);  // sends 0.42
  m.take_actions();
  m.set_volume("0.42");  // HA echo arrives while still turning
  m.turn(1, 1100);
  m.turn(1, 1150);
  m.tick(1250);
  auto a = m.take_actions();
  CHECK_EQ(a.size(), 1u);
  if (!a.empty()) CHECK_EQ(a[0].data[1].second, std::string("0.46"));
}

TEST(turn_back_to_start_sends_start_level) {
  Model m = playing_model();
  m.turn(1, 1000);  // 0.42 sent
  m.turn(-1, 1050);
  m.tick(1250);
  auto a = m.take_actions();
  CHECK_EQ(a.size(), 2u);
  if (a.size() == 2) CHECK_EQ(a[1].data[1].second, std::string("0.4"));
}

TEST(volume_ignored_when_unknown_or_off) {
  Model m;
  m.set_state("playing");
  CHECK(!m.turn(1, 100));
  CHECK(m.take_actions().empty());
  m.set_volume("0.3");
  m.set_state("off");
  CHECK(!m.turn(1, 200));
  CHECK(m.take_actions().empty());
}

TEST(buttons_map_to_actions) {
  Model m = playing_model();
  m.press(Button::PLAY_PAUSE, 10);
  m.press(Button::NEXT, 20);
  m.press(Button::STANDBY, 30);
  auto a = m.take_actions();
  CHECK_EQ(describe(a), std::string("media_player.media_play_pause(entity_id=media_player.linn_klimax,) "
                                    "media_player.media_next_track(entity_id=media_player.linn_klimax,) "
                                    "media_player.turn_off(entity_id=media_player.linn_klimax,) "));
  m.set_state("off");
  CHECK(!m.press(Button::PLAY_PAUSE, 40));
  CHECK(!m.press(Button::NEXT, 40));
  CHECK(m.press(Button::STANDBY, 50));
  CHECK_EQ(describe(m.take_actions()), std::string("media_player.turn_on(entity_id=media_player.linn_klimax,) "));
}

TEST(source_button_cycles_source_list_optimistically) {
  Model m = playing_model();
  m.press(Button::SOURCE, 10);
  m.press(Button::SOURCE, 20);  // before HA confirms: continues from the optimistic source
  m.press(Button::SOURCE, 30);
  m.press(Button::SOURCE, 40);  // wraps
  auto a = m.take_actions();
  CHECK_EQ(a.size(), 4u);
  if (a.size() == 4) {
    CHECK_EQ(a[0].data[1].second, std::string("Radio"));
    CHECK_EQ(a[1].data[1].second, std::string("Linn's TV"));
    CHECK_EQ(a[2].data[1].second, std::string("Spotify"));
    CHECK_EQ(a[3].data[1].second, std::string("Playlist"));
    CHECK_EQ(a[0].action, std::string("media_player.select_source"));
  }
  m.set_source("Unknown input");  // not in the list: start at the first entry
  m.press(Button::SOURCE, 50);
  a = m.take_actions();
  CHECK_EQ(a.size(), 1u);
  if (!a.empty()) CHECK_EQ(a[0].data[1].second, std::string("Playlist"));
  m.set_source_list("[]");
  CHECK(!m.press(Button::SOURCE, 60));
}

TEST(pages_cycle_and_source_page_follows_the_encoder) {
  Model m = playing_model();
  CHECK(m.page() == Page::NOW_PLAYING);
  m.press(Button::ENCODER, 10);
  CHECK(m.page() == Page::VOLUME);
  m.turn(1, 20);  // volume page: the encoder is volume
  CHECK_EQ(m.take_actions().size(), 1u);
  m.tick(3000);
  m.press(Button::ENCODER, 3000);
  CHECK(m.page() == Page::SOURCES);
  CHECK_EQ(m.source_cursor(), 0);  // cursor starts on the current source
  m.turn(2, 3100);
  CHECK_EQ(m.source_cursor(), 2);
  m.turn(10, 3200);
  CHECK_EQ(m.source_cursor(), 3);  // clamped to the list
  m.turn(-1, 3300);
  CHECK(m.take_actions().empty());  // no volume calls on the source page
  m.press(Button::ENCODER, 3400);   // select "Linn's TV" and go back to the first page
  auto a = m.take_actions();
  CHECK_EQ(a.size(), 1u);
  if (!a.empty()) CHECK_EQ(a[0].data[1].second, std::string("Linn's TV"));
  CHECK(m.page() == Page::NOW_PLAYING);
  CHECK_EQ(m.source(), std::string("Linn's TV"));
}

TEST(single_page_list_and_page_reset_on_standby) {
  Config cfg;
  cfg.pages = {Page::NOW_PLAYING};
  Model one = playing_model(cfg);
  CHECK(!one.press(Button::ENCODER, 10));
  Model m = playing_model();
  m.press(Button::ENCODER, 10);
  CHECK(m.page() == Page::VOLUME);
  m.set_state("off");
  CHECK(m.page() == Page::NOW_PLAYING);
  Config c2;
  c2.pages = {Page::VOLUME, Page::SOURCES};
  Model v = playing_model(c2);
  CHECK(v.page() == Page::VOLUME);
}

TEST(idle_phases_and_wake_only_input) {
  Config cfg;
  cfg.dim_after_ms = 1000;
  cfg.sleep_after_ms = 3000;
  Model m = playing_model(cfg);
  CHECK(m.phase(999) == Phase::ACTIVE);
  CHECK(m.phase(1000) == Phase::DIM);
  CHECK(m.press(Button::NEXT, 2000));  // dimmed screen is visible: the press acts
  CHECK_EQ(m.take_actions().size(), 1u);
  CHECK(m.phase(2500) == Phase::ACTIVE);
  CHECK(m.phase(5000) == Phase::SLEEP);
  CHECK(!m.press(Button::NEXT, 5000));  // asleep: the first press only wakes
  CHECK(m.take_actions().empty());
  CHECK(m.phase(5001) == Phase::ACTIVE);
  CHECK(!m.turn(3, 9000));  // same for the encoder
  CHECK(m.take_actions().empty());
  // millis() wrap-around
  m.touch(0xFFFFFF00u);
  CHECK(m.phase(0x00000010u) == Phase::ACTIVE);
}

// ---- rendering ----

struct Op {
  std::string kind;
  Rect r;
};

class FakeCanvas : public Canvas {
 public:
  std::vector<Op> ops;
  void fill(const Rect &r, bool on) override { ops.push_back({on ? "fill" : "clear", r}); }
  void frame(const Rect &r) override { ops.push_back({"frame", r}); }
  void triangle(int x1, int y1, int x2, int y2, int x3, int y3) override {
    int x = std::min({x1, x2, x3}), y = std::min({y1, y2, y3});
    ops.push_back({"triangle", {x, y, std::max({x1, x2, x3}) - x + 1, std::max({y1, y2, y3}) - y + 1}});
  }
  void text(int x, int y, Font, const std::string &s, const Rect &clip, bool) override {
    ops.push_back({"text:" + s, clip});
    (void) x;
    (void) y;
  }
  int text_width(Font f, const std::string &s) override {
    return static_cast<int>(s.size()) * (f == Font::SMALL ? 6 : f == Font::LARGE ? 8 : 14);
  }
};

static bool all_inside(const std::vector<Op> &ops, const Rect &r) {
  for (auto &o : ops)
    if (!r.contains(o.r)) return false;
  return true;
}

TEST(first_render_draws_everything_then_nothing) {
  Model m = playing_model();
  Renderer r;
  FakeCanvas c;
  CHECK(r.dirty(m, c, 0));
  auto drawn = r.render(m, c, 0);
  CHECK_EQ(drawn.size(), 5u);
  CHECK(!r.dirty(m, c, 10));
  c.ops.clear();
  CHECK(r.render(m, c, 10).empty());
  CHECK(c.ops.empty());
}

TEST(volume_change_redraws_only_the_volume_bar) {
  Model m = playing_model();
  Renderer r;
  FakeCanvas c;
  r.render(m, c, 0);
  c.ops.clear();
  m.set_volume("0.55");
  auto drawn = r.render(m, c, 10);
  CHECK_EQ(drawn.size(), 1u);
  CHECK(drawn[0] == WidgetId::VOLUME);
  CHECK(!c.ops.empty());
  CHECK(all_inside(c.ops, widget_rect(WidgetId::VOLUME)));
  bool has_label = false;
  for (auto &o : c.ops) has_label |= o.kind == "text:55%";
  CHECK(has_label);
}

TEST(title_change_redraws_only_title) {
  Model m = playing_model();
  Renderer r;
  FakeCanvas c;
  r.render(m, c, 0);
  c.ops.clear();
  m.set_title("Freddie Freeloader");
  auto drawn = r.render(m, c, 10);
  CHECK_EQ(drawn.size(), 1u);
  CHECK(drawn[0] == WidgetId::TITLE);
  CHECK(all_inside(c.ops, widget_rect(WidgetId::TITLE)));
  c.ops.clear();
  m.set_state("paused");
  drawn = r.render(m, c, 20);
  CHECK_EQ(drawn.size(), 1u);
  CHECK(drawn[0] == WidgetId::TRANSPORT);
  CHECK(all_inside(c.ops, widget_rect(WidgetId::TRANSPORT)));
}

TEST(long_title_scrolls_only_in_its_row) {
  Model m = playing_model();
  m.set_title("A Very Long Title That Does Not Fit On The Screen At All");
  Renderer r;
  FakeCanvas c;
  r.render(m, c, 0);
  c.ops.clear();
  CHECK(r.render(m, c, 1000).empty());  // pause before scrolling
  CHECK(!r.dirty(m, c, 1000));
  CHECK(r.dirty(m, c, 1500 + 3 * Renderer::MARQUEE_MS_PER_PX));
  auto drawn = r.render(m, c, 1500 + 3 * Renderer::MARQUEE_MS_PER_PX);
  CHECK_EQ(drawn.size(), 1u);
  CHECK(drawn[0] == WidgetId::TITLE);
  CHECK(all_inside(c.ops, widget_rect(WidgetId::TITLE)));
  // a short title never scrolls
  Model s = playing_model();
  Renderer r2;
  r2.render(s, c, 0);
  CHECK(!r2.dirty(s, c, 60000));
  CHECK(r2.render(s, c, 60000).empty());
}

TEST(standby_screen_and_page_change_redraw_all) {
  Model m = playing_model();
  Renderer r;
  FakeCanvas c;
  r.render(m, c, 0);
  m.set_state("off");
  c.ops.clear();
  auto drawn = r.render(m, c, 10);
  CHECK_EQ(drawn.size(), 1u);
  CHECK(drawn[0] == WidgetId::STANDBY);
  bool standby_text = false;
  for (auto &o : c.ops) standby_text |= o.kind == "text:Standby";
  CHECK(standby_text);
  m.set_state("playing");
  m.press(Button::ENCODER, 20);  // volume page
  drawn = r.render(m, c, 30);
  CHECK_EQ(drawn.size(), 4u);
  CHECK(std::find(drawn.begin(), drawn.end(), WidgetId::BIG_VOLUME) != drawn.end());
}

TEST(mute_redraws_only_the_volume_widget) {
  Model m = playing_model();
  Renderer r;
  FakeCanvas c;
  r.render(m, c, 0);
  c.ops.clear();
  m.set_muted("on");
  auto drawn = r.render(m, c, 10);
  CHECK_EQ(drawn.size(), 1u);
  CHECK(drawn[0] == WidgetId::VOLUME);
  bool mute = false;
  for (auto &o : c.ops) mute |= o.kind == "text:MUTE";
  CHECK(mute);
  CHECK(all_inside(c.ops, widget_rect(WidgetId::VOLUME)));
}

TEST(turning_shows_target_volume_immediately) {
  Model m = playing_model();
  Renderer r;
  FakeCanvas c;
  r.render(m, c, 0);
  c.ops.clear();
  m.turn(3, 100);
  auto drawn = r.render(m, c, 100);
  CHECK_EQ(drawn.size(), 1u);
  bool label = false;
  for (auto &o : c.ops) label |= o.kind == "text:46%";
  CHECK(label);
}

// Proof that a failing case fails the run (esphome_configs/tests/test_model_tests_can_fail.py).
#ifdef LINN_MODEL_TESTS_INJECT_FAILURE
TEST(injected_failure) { CHECK_EQ(1, 2); }
#endif

int main(int argc, char **argv) {
  const bool verbose = argc > 1 && std::string(argv[1]) == "-v";
  int passed = 0, failed = 0;
  for (auto &t : registry()) {
    int before = g_failed_checks;
    t.second();
    if (g_failed_checks == before) {
      passed++;
      if (verbose) std::printf("PASS %s\n", t.first);
    } else {
      failed++;
      std::printf("FAIL %s\n", t.first);
    }
  }
  std::printf("model tests: %d passed, %d failed\n", passed, failed);
  return failed == 0 ? 0 : 1;
}
