#pragma once
// Pure C++ model of the Linn remote: player state, pages, encoder coalescing, idle phases and
// the widget renderer. No ESPHome includes: host unit tests build it with plain g++
// (esphome_configs/tests/cpp/test_model.cpp). Time is passed in explicitly (milliseconds,
// wrapping uint32_t like millis()).

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

namespace linn_model {

enum class PlayerState : uint8_t { UNKNOWN, UNAVAILABLE, OFF, IDLE, PLAYING, PAUSED, BUFFERING, ON };
enum class Page : uint8_t { NOW_PLAYING, VOLUME, SOURCES };
enum class Button : uint8_t { PLAY_PAUSE, NEXT, SOURCE, STANDBY, ENCODER };
enum class Phase : uint8_t { ACTIVE, DIM, SLEEP };

inline PlayerState parse_player_state(const std::string &s) {
  if (s == "off" || s == "standby") return PlayerState::OFF;
  if (s == "idle") return PlayerState::IDLE;
  if (s == "playing") return PlayerState::PLAYING;
  if (s == "paused") return PlayerState::PAUSED;
  if (s == "buffering") return PlayerState::BUFFERING;
  if (s == "on") return PlayerState::ON;
  if (s == "unavailable") return PlayerState::UNAVAILABLE;
  return PlayerState::UNKNOWN;
}

inline bool parse_bool(const std::string &s) { return s == "on" || s == "true" || s == "True" || s == "1"; }

/// Parse a volume_level attribute ("0.4") into per-mille. Returns false if it is not a number.
inline bool parse_volume_pm(const std::string &s, int *out) {
  if (s.empty()) return false;
  char *end = nullptr;
  double v = std::strtod(s.c_str(), &end);
  if (end == s.c_str() || *end != '\0' || v != v) return false;
  v = std::min(1.0, std::max(0.0, v));
  *out = static_cast<int>(v * 1000.0 + 0.5);
  return true;
}

/// Format per-mille as a decimal without trailing zeros: 420 -> "0.42", 1000 -> "1.0", 0 -> "0.0".
inline std::string format_volume(int pm) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%d.%03d", pm / 1000, pm % 1000);
  std::string s(buf);
  while (s.size() > 3 && s.back() == '0') s.pop_back();
  return s;
}

/// Parse an attribute list as Home Assistant's ESPHome integration sends it (Python repr of a
/// list: "['Playlist', 'Radio', \"Linn's\"]"). Also accepts JSON ("[\"a\", \"b\"]").
inline std::vector<std::string> parse_list(const std::string &s) {
  std::vector<std::string> out;
  size_t i = 0;
  const size_t n = s.size();
  while (i < n) {
    char q = s[i];
    if (q != '\'' && q != '"') {
      i++;
      continue;
    }
    std::string item;
    i++;
    while (i < n && s[i] != q) {
      if (s[i] == '\\' && i + 1 < n) {
        i++;
        char c = s[i];
        item += (c == 'n') ? '\n' : (c == 't') ? '\t' : c;
      } else {
        item += s[i];
      }
      i++;
    }
    i++;  // closing quote
    out.push_back(item);
  }
  return out;
}

/// A call of a Home Assistant action with string data, as the component sends it.
struct Action {
  std::string action;
  std::vector<std::pair<std::string, std::string>> data;
  bool operator==(const Action &o) const { return action == o.action && data == o.data; }
};

struct Config {
  std::string entity_id{"media_player.linn"};
  int volume_step_pm{20};        ///< volume per encoder detent, per mille (10..100)
  int max_volume_pm{1000};       ///< never send more than this
  uint32_t send_interval_ms{250};  ///< at most one volume_set per interval while turning
  uint32_t settle_ms{1000};      ///< a turn gesture ends this long after the last detent
  uint32_t dim_after_ms{15000};
  uint32_t sleep_after_ms{60000};
  std::vector<Page> pages{Page::NOW_PLAYING, Page::VOLUME, Page::SOURCES};
};

class Model {
 public:
  explicit Model(Config cfg = Config()) : cfg_(std::move(cfg)) {
    if (this->cfg_.pages.empty()) this->cfg_.pages.push_back(Page::NOW_PLAYING);
  }
  const Config &config() const { return this->cfg_; }
  Config &mutable_config() { return this->cfg_; }

  // ---- Home Assistant state (from the API subscriptions) ----
  void set_state(const std::string &s) {
    PlayerState st = parse_player_state(s);
    if (st != this->state_) {
      this->state_ = st;
      if (!this->is_on()) {
        // HA sends nothing for absent attributes: forget what was playing so that a stale title
        // is not shown when the player comes back on without one.
        this->title_.clear();
        this->artist_.clear();
        this->turning_ = false;
        this->goto_page_(0);
      }
      this->version_++;
    }
  }
  void set_title(const std::string &s) { this->set_str_(&this->title_, s); }
  void set_artist(const std::string &s) { this->set_str_(&this->artist_, s); }
  void set_source(const std::string &s) { this->set_str_(&this->source_, s); }
  void set_source_list(const std::string &s) {
    auto l = parse_list(s);
    if (l != this->source_list_) {
      this->source_list_ = l;
      this->version_++;
    }
  }
  void set_muted(const std::string &s) {
    bool m = parse_bool(s);
    if (m != this->muted_) {
      this->muted_ = m;
      this->version_++;
    }
  }
  /// volume_level from HA. Ignored (returns false) if it is not a number.
  bool set_volume(const std::string &s) {
    int pm;
    if (!parse_volume_pm(s, &pm)) return false;
    this->ha_volume_pm_ = pm;
    this->volume_known_ = true;
    this->version_++;
    return true;
  }

  PlayerState state() const { return this->state_; }
  bool is_on() const {
    return this->state_ != PlayerState::OFF && this->state_ != PlayerState::UNKNOWN &&
           this->state_ != PlayerState::UNAVAILABLE;
  }
  /// Title and artist are only meaningful while on: HA sends nothing for absent attributes,
  /// so a stale title from before standby must not be shown.
  const std::string &title() const { return this->title_; }
  const std::string &artist() const { return this->artist_; }
  const std::string &source() const { return this->source_; }
  const std::vector<std::string> &source_list() const { return this->source_list_; }
  bool muted() const { return this->muted_; }
  bool volume_known() const { return this->volume_known_; }
  int ha_volume_pm() const { return this->ha_volume_pm_; }
  /// What the screen shows: the target while turning, otherwise HA's level.
  int shown_volume_pm() const { return this->turning_ ? this->target_pm_ : this->ha_volume_pm_; }
  bool turning() const { return this->turning_; }
  uint32_t version() const { return this->version_; }

  // ---- pages ----
  Page page() const { return this->cfg_.pages[this->page_index_]; }
  size_t page_index() const { return this->page_index_; }
  int source_cursor() const { return this->cursor_; }

  // ---- idle handling ----
  Phase phase(uint32_t now) const {
    uint32_t idle = now - this->last_input_ms_;
    if (idle >= this->cfg_.sleep_after_ms) return Phase::SLEEP;
    if (idle >= this->cfg_.dim_after_ms) return Phase::DIM;
    return Phase::ACTIVE;
  }
  void touch(uint32_t now) { this->last_input_ms_ = now; }

  // ---- input ----
  /// Encoder turned by `steps` detents (positive = clockwise). Returns true if it did something
  /// other than waking the screen.
  bool turn(int steps, uint32_t now) {
    if (!this->wake_(now) || steps == 0) return false;
    if (!this->is_on()) return false;
    if (this->page() == Page::SOURCES) {
      int n = static_cast<int>(this->source_list_.size());
      if (n == 0) return false;
      this->cursor_ = std::min(n - 1, std::max(0, this->cursor_ + steps));
      this->version_++;
      return true;
    }
    if (!this->volume_known_) return false;  // no absolute level to start from
    if (!this->turning_) {
      this->turning_ = true;
      this->target_pm_ = this->ha_volume_pm_;
      this->sent_pm_ = this->ha_volume_pm_;
      this->last_send_ms_ = now - this->cfg_.send_interval_ms;  // first change goes out at once
    }
    int t = this->target_pm_ + steps * this->cfg_.volume_step_pm;
    this->target_pm_ = std::min(this->cfg_.max_volume_pm, std::max(0, t));
    this->last_turn_ms_ = now;
    this->version_++;
    this->tick(now);
    return true;
  }

  /// A button press. Returns true if it did something other than waking the screen.
  bool press(Button b, uint32_t now) {
    if (!this->wake_(now)) return false;
    switch (b) {
      case Button::STANDBY:
        this->emit_(this->is_on() ? "media_player.turn_off" : "media_player.turn_on");
        return true;
      case Button::PLAY_PAUSE:
        if (!this->is_on()) return false;
        this->emit_("media_player.media_play_pause");
        return true;
      case Button::NEXT:
        if (!this->is_on()) return false;
        this->emit_("media_player.media_next_track");
        return true;
      case Button::SOURCE: {
        if (!this->is_on() || this->source_list_.empty()) return false;
        auto it = std::find(this->source_list_.begin(), this->source_list_.end(), this->source_);
        size_t next = it == this->source_list_.end() ? 0 : (it - this->source_list_.begin() + 1) % this->source_list_.size();
        this->select_source_(this->source_list_[next]);
        return true;
      }
      case Button::ENCODER:
        return this->encoder_press_();
    }
    return false;
  }

  /// Advance time: sends the coalesced volume_set and ends a turn gesture once it settles.
  void tick(uint32_t now) {
    if (!this->turning_) return;
    if (this->target_pm_ != this->sent_pm_ && now - this->last_send_ms_ >= this->cfg_.send_interval_ms) {
      this->emit_("media_player.volume_set", "volume_level", format_volume(this->target_pm_));
      this->sent_pm_ = this->target_pm_;
      this->last_send_ms_ = now;
    }
    if (this->target_pm_ == this->sent_pm_ && now - this->last_turn_ms_ >= this->cfg_.settle_ms) {
      this->turning_ = false;  // from now on the screen and the next gesture follow HA's level
      this->version_++;
    }
  }

  /// Actions produced since the last call, oldest first.
  std::vector<Action> take_actions() {
    std::vector<Action> out;
    out.swap(this->actions_);
    return out;
  }

 protected:
  void set_str_(std::string *field, const std::string &v) {
    if (*field != v) {
      *field = v;
      this->version_++;
    }
  }
  /// Records input. Returns false if the screen was asleep: that input only wakes it, because
  /// the user could not see what it would act on.
  bool wake_(uint32_t now) {
    bool was_asleep = this->phase(now) == Phase::SLEEP;
    this->last_input_ms_ = now;
    return !was_asleep;
  }
  bool encoder_press_() {
    if (!this->is_on()) return false;
    if (this->page() == Page::SOURCES) return this->select_cursor_();
    if (this->cfg_.pages.size() < 2) return false;
    this->goto_page_((this->page_index_ + 1) % this->cfg_.pages.size());
    return true;
  }
  bool select_cursor_() {
    if (this->cursor_ >= 0 && this->cursor_ < static_cast<int>(this->source_list_.size()) &&
        this->source_list_[this->cursor_] != this->source_) {
      this->select_source_(this->source_list_[this->cursor_]);
    }
    this->goto_page_(0);
    return true;
  }
  void goto_page_(size_t idx) {
    this->page_index_ = idx;
    if (this->page() == Page::SOURCES) {
      auto it = std::find(this->source_list_.begin(), this->source_list_.end(), this->source_);
      this->cursor_ = it == this->source_list_.end() ? 0 : static_cast<int>(it - this->source_list_.begin());
    }
    this->version_++;
  }
  void select_source_(const std::string &s) {
    this->emit_("media_player.select_source", "source", s);
    this->source_ = s;  // optimistic: a second press continues from here, HA's echo confirms it
    this->version_++;
  }
  void emit_(const char *action, const char *key = nullptr, const std::string &value = "") {
    Action a{action, {{"entity_id", this->cfg_.entity_id}}};
    if (key != nullptr) a.data.emplace_back(key, value);
    this->actions_.push_back(a);
  }

  Config cfg_;
  PlayerState state_{PlayerState::UNKNOWN};
  std::string title_, artist_, source_;
  std::vector<std::string> source_list_;
  bool muted_{false};
  bool volume_known_{false};
  int ha_volume_pm_{0};
  bool turning_{false};
  int target_pm_{0};
  int sent_pm_{0};
  uint32_t last_send_ms_{0};
  uint32_t last_turn_ms_{0};
  uint32_t last_input_ms_{0};
  size_t page_index_{0};
  int cursor_{0};
  uint32_t version_{0};
  std::vector<Action> actions_;
};

// ---------------------------------------------------------------------------------------------
// Rendering: a widget owns a rectangle and a "signature" of what it shows. render() redraws a
// widget (clear its rectangle, draw clipped to it) only when its signature changed, so a volume
// change touches only the volume bar and a scrolling title only the title row.

struct Rect {
  int x, y, w, h;
  bool contains(const Rect &o) const { return o.x >= x && o.y >= y && o.x + o.w <= x + w && o.y + o.h <= y + h; }
};

enum class Font : uint8_t { SMALL, LARGE, HUGE };

/// Drawing surface; the ESPHome adapter maps it onto display::Display.
class Canvas {
 public:
  virtual ~Canvas() = default;
  virtual void fill(const Rect &r, bool on) = 0;
  virtual void frame(const Rect &r) = 0;
  virtual void triangle(int x1, int y1, int x2, int y2, int x3, int y3) = 0;
  /// Text with its top-left at (x, y), clipped to `clip`; `inverted` draws dark on light.
  virtual void text(int x, int y, Font font, const std::string &s, const Rect &clip, bool inverted) = 0;
  virtual int text_width(Font font, const std::string &s) = 0;
};

enum class WidgetId : uint8_t { TRANSPORT, SOURCE, TITLE, ARTIST, VOLUME, BIG_VOLUME, SOURCES_HEADER, SOURCES_LIST, STANDBY, COUNT };

inline const char *widget_name(WidgetId id) {
  static const char *const NAMES[] = {"transport", "source", "title", "artist", "volume", "big_volume",
                                      "sources_header", "sources_list", "standby"};
  int i = static_cast<int>(id);
  return i >= 0 && i < static_cast<int>(WidgetId::COUNT) ? NAMES[i] : "?";
}

constexpr int SCREEN_W = 128;
constexpr int SCREEN_H = 64;

inline Rect widget_rect(WidgetId id) {
  switch (id) {
    case WidgetId::TRANSPORT: return {0, 0, 12, 12};
    case WidgetId::SOURCE: return {14, 0, 114, 12};
    case WidgetId::TITLE: return {0, 14, 128, 18};
    case WidgetId::ARTIST: return {0, 33, 128, 14};
    case WidgetId::VOLUME: return {0, 50, 128, 14};
    case WidgetId::BIG_VOLUME: return {0, 14, 128, 34};
    case WidgetId::SOURCES_HEADER: return {0, 0, 128, 12};
    case WidgetId::SOURCES_LIST: return {0, 13, 128, 51};
    case WidgetId::STANDBY: return {0, 0, SCREEN_W, SCREEN_H};
    default: return {0, 0, 0, 0};
  }
}

class Renderer {
 public:
  static constexpr uint32_t MARQUEE_PAUSE_MS = 1500;
  static constexpr uint32_t MARQUEE_MS_PER_PX = 50;
  static constexpr int MARQUEE_GAP = 24;

  /// Force a full redraw on the next render (after waking, or at start).
  void invalidate() { this->full_ = true; }

  /// The widgets visible for the model's current state and page.
  static std::vector<WidgetId> visible(const Model &m) {
    if (!m.is_on()) return {WidgetId::STANDBY};
    switch (m.page()) {
      case Page::NOW_PLAYING:
        return {WidgetId::TRANSPORT, WidgetId::SOURCE, WidgetId::TITLE, WidgetId::ARTIST, WidgetId::VOLUME};
      case Page::VOLUME:
        return {WidgetId::TRANSPORT, WidgetId::SOURCE, WidgetId::BIG_VOLUME, WidgetId::VOLUME};
      case Page::SOURCES:
        return {WidgetId::SOURCES_HEADER, WidgetId::SOURCES_LIST};
    }
    return {};
  }

  /// Signature of what widget `id` shows at time `now`; a change means a redraw.
  std::string signature(WidgetId id, const Model &m, Canvas &c, uint32_t now) {
    switch (id) {
      case WidgetId::TRANSPORT: return std::to_string(static_cast<int>(m.state()));
      case WidgetId::SOURCE: return m.source();
      case WidgetId::TITLE: return m.title() + '\x01' + std::to_string(this->marquee_offset_(m, c, now));
      case WidgetId::ARTIST: return m.artist();
      case WidgetId::VOLUME:
      case WidgetId::BIG_VOLUME:
        return m.volume_known() ? std::to_string(m.shown_volume_pm()) + (m.muted() ? "M" : "") : "?";
      case WidgetId::SOURCES_HEADER: return m.source();
      case WidgetId::SOURCES_LIST: {
        std::string s = std::to_string(m.source_cursor());
        for (auto &x : m.source_list()) s += '\x01' + x;
        return s;
      }
      case WidgetId::STANDBY: return std::to_string(static_cast<int>(m.state())) + m.source();
      default: return "";
    }
  }

  /// True if render() would draw anything. Cheap when nothing changed and no title scrolls.
  bool dirty(const Model &m, Canvas &c, uint32_t now) {
    if (this->full_ || this->layout_changed_(m)) return true;
    if (m.version() == this->rendered_version_ && !this->scrolling_) return false;
    for (auto id : visible(m))
      if (this->drawn_[static_cast<int>(id)] != this->signature(id, m, c, now)) return true;
    return false;
  }

  /// Draw what changed. Returns the widgets drawn (all visible ones after a layout change).
  std::vector<WidgetId> render(const Model &m, Canvas &c, uint32_t now) {
    std::vector<WidgetId> drawn;
    auto vis = visible(m);
    if (this->full_ || this->layout_changed_(m)) {
      c.fill({0, 0, SCREEN_W, SCREEN_H}, false);
      for (auto &d : this->drawn_) d = "\x02";  // impossible signature: redraw all
      this->layout_ = vis;
      this->full_ = false;
    }
    this->rendered_version_ = m.version();
    this->scrolling_ = false;
    for (auto id : vis) {
      if (id == WidgetId::TITLE)
        this->scrolling_ = c.text_width(Font::LARGE, m.title()) > widget_rect(WidgetId::TITLE).w;
      std::string sig = this->signature(id, m, c, now);
      auto &last = this->drawn_[static_cast<int>(id)];
      if (sig == last) continue;
      last = sig;
      c.fill(widget_rect(id), false);
      this->draw_(id, m, c, now);
      drawn.push_back(id);
    }
    return drawn;
  }

  /// Blank the whole screen (sleep); the next render redraws everything.
  void blank(Canvas &c) {
    c.fill({0, 0, SCREEN_W, SCREEN_H}, false);
    this->full_ = true;
  }

 protected:
  bool layout_changed_(const Model &m) const { return visible(m) != this->layout_; }

  int marquee_offset_(const Model &m, Canvas &c, uint32_t now) {
    if (m.title() != this->marquee_text_) {
      this->marquee_text_ = m.title();
      this->marquee_start_ = now;
      this->marquee_width_ = c.text_width(Font::LARGE, m.title());
    }
    Rect r = widget_rect(WidgetId::TITLE);
    if (this->marquee_width_ <= r.w) return 0;
    uint32_t t = now - this->marquee_start_;
    if (t < MARQUEE_PAUSE_MS) return 0;
    int cycle = this->marquee_width_ + MARQUEE_GAP;
    return static_cast<int>(((t - MARQUEE_PAUSE_MS) / MARQUEE_MS_PER_PX) % static_cast<uint32_t>(cycle));
  }

  void draw_(WidgetId id, const Model &m, Canvas &c, uint32_t now) {
    Rect r = widget_rect(id);
    switch (id) {
      case WidgetId::TRANSPORT:
        switch (m.state()) {
          case PlayerState::PLAYING:
          case PlayerState::BUFFERING:
          case PlayerState::ON:
            c.triangle(r.x + 2, r.y + 1, r.x + 2, r.y + 10, r.x + 10, r.y + 5);
            break;
          case PlayerState::PAUSED:
            c.fill({r.x + 2, r.y + 1, 3, 10}, true);
            c.fill({r.x + 7, r.y + 1, 3, 10}, true);
            break;
          default:
            c.fill({r.x + 2, r.y + 2, 8, 8}, true);
            break;
        }
        break;
      case WidgetId::SOURCE:
        c.text(r.x, r.y, Font::SMALL, m.source(), r, false);
        break;
      case WidgetId::TITLE: {
        int off = this->marquee_offset_(m, c, now);
        c.text(r.x - off, r.y, Font::LARGE, m.title(), r, false);
        if (off > 0) c.text(r.x - off + this->marquee_width_ + MARQUEE_GAP, r.y, Font::LARGE, m.title(), r, false);
        break;
      }
      case WidgetId::ARTIST:
        c.text(r.x, r.y, Font::SMALL, m.artist(), r, false);
        break;
      case WidgetId::VOLUME: {
        Rect bar{r.x, r.y + 3, 96, 9};
        c.frame(bar);
        if (m.volume_known()) {
          int inner = (bar.w - 4) * m.shown_volume_pm() / 1000;
          if (inner > 0) c.fill({bar.x + 2, bar.y + 2, inner, bar.h - 4}, true);
        }
        std::string label = !m.volume_known() ? "--" : m.muted() ? "MUTE" : std::to_string((m.shown_volume_pm() + 5) / 10) + "%";
        Rect lr{r.x + 99, r.y, r.w - 99, r.h};
        c.text(lr.x, lr.y + 1, Font::SMALL, label, lr, false);
        break;
      }
      case WidgetId::BIG_VOLUME: {
        std::string label = !m.volume_known() ? "--" : m.muted() ? "MUTE" : std::to_string((m.shown_volume_pm() + 5) / 10) + "%";
        int w = c.text_width(Font::HUGE, label);
        c.text(r.x + (r.w - w) / 2, r.y + 2, Font::HUGE, label, r, false);
        break;
      }
      case WidgetId::SOURCES_HEADER:
        c.text(r.x, r.y, Font::SMALL, "Source: " + m.source(), r, false);
        c.fill({r.x, r.y + r.h - 1, r.w, 1}, true);
        break;
      case WidgetId::SOURCES_LIST: {
        const auto &l = m.source_list();
        const int row_h = 12, rows = r.h / row_h;
        int first = std::max(0, std::min(m.source_cursor() - rows + 1, static_cast<int>(l.size()) - rows));
        first = std::max(0, first);
        for (int i = 0; i < rows && first + i < static_cast<int>(l.size()); i++) {
          Rect row{r.x, r.y + 1 + i * row_h, r.w, row_h};
          bool sel = first + i == m.source_cursor();
          if (sel) c.fill(row, true);
          c.text(row.x + 2, row.y, Font::SMALL, l[first + i], row, sel);
        }
        break;
      }
      case WidgetId::STANDBY: {
        std::string head = m.state() == PlayerState::OFF ? "Standby"
                           : m.state() == PlayerState::UNAVAILABLE ? "Unavailable"
                                                                   : "Waiting for HA";
        int w = c.text_width(Font::LARGE, head);
        c.text((SCREEN_W - w) / 2, 16, Font::LARGE, head, r, false);
        if (m.state() == PlayerState::OFF) {
          std::string hint = "Standby button: on";
          int hw = c.text_width(Font::SMALL, hint);
          c.text((SCREEN_W - hw) / 2, 36, Font::SMALL, hint, r, false);
        }
        break;
      }
      default:
        break;
    }
  }

  bool full_{true};
  bool scrolling_{false};
  uint32_t rendered_version_{0};
  std::vector<WidgetId> layout_;
  std::string drawn_[static_cast<int>(WidgetId::COUNT)];
  std::string marquee_text_;
  uint32_t marquee_start_{0};
  int marquee_width_{0};
};

}  // namespace linn_model
