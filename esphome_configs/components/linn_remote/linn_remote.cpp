#include "linn_remote.h"

#include <map>

#include "esphome/components/api/api_server.h"
#include "esphome/core/hal.h"
#include "esphome/core/log.h"

namespace esphome::linn_remote {

static const char *const TAG = "linn_remote";
static constexpr uint32_t MIN_FRAME_MS = 40;

using ::linn_model::Phase;

// ---- DisplayCanvas ----

void DisplayCanvas::fill(const ::linn_model::Rect &r, bool on) {
  this->display->filled_rectangle(r.x, r.y, r.w, r.h, on ? display::COLOR_ON : display::COLOR_OFF);
}

void DisplayCanvas::frame(const ::linn_model::Rect &r) { this->display->rectangle(r.x, r.y, r.w, r.h); }

void DisplayCanvas::triangle(int x1, int y1, int x2, int y2, int x3, int y3) {
  this->display->filled_triangle(x1, y1, x2, y2, x3, y3);
}

void DisplayCanvas::text(int x, int y, ::linn_model::Font font, const std::string &s, const ::linn_model::Rect &clip,
                         bool inverted) {
  font::Font *f = this->fonts[static_cast<int>(font)];
  if (f == nullptr || s.empty())
    return;
  this->display->start_clipping(display::Rect(clip.x, clip.y, clip.w, clip.h));
  this->display->print(x, y, f, inverted ? display::COLOR_OFF : display::COLOR_ON, display::TextAlign::TOP_LEFT,
                       s.c_str(), inverted ? display::COLOR_ON : display::COLOR_OFF);
  this->display->end_clipping();
}

int DisplayCanvas::text_width(::linn_model::Font font, const std::string &s) {
  font::Font *f = this->fonts[static_cast<int>(font)];
  if (f == nullptr || s.empty())
    return 0;
  int x1, y1, w, h;
  this->display->get_text_bounds(0, 0, s.c_str(), f, display::TextAlign::TOP_LEFT, &x1, &y1, &w, &h);
  return w;
}

// ---- LinnRemote ----

void LinnRemote::set_pages(const std::vector<uint8_t> &pages) {
  auto &cfg = this->model_.mutable_config().pages;
  cfg.clear();
  for (auto p : pages)
    cfg.push_back(static_cast<::linn_model::Page>(p));
  this->model_ = ::linn_model::Model(this->model_.config());
}

void LinnRemote::setup() {
  const std::string &e = this->model_.config().entity_id;
  // The main state first: the model forgets title/artist when the player goes to standby.
  this->subscribe_homeassistant_state(&LinnRemote::on_state_, e);
  this->subscribe_homeassistant_state(&LinnRemote::on_title_, e, "media_title");
  this->subscribe_homeassistant_state(&LinnRemote::on_artist_, e, "media_artist");
  this->subscribe_homeassistant_state(&LinnRemote::on_volume_, e, "volume_level");
  this->subscribe_homeassistant_state(&LinnRemote::on_muted_, e, "is_volume_muted");
  this->subscribe_homeassistant_state(&LinnRemote::on_source_, e, "source");
  this->subscribe_homeassistant_state(&LinnRemote::on_source_list_, e, "source_list");

  // The component owns the screen: nothing clears it behind the widgets' backs.
  this->canvas_.display->set_auto_clear(false);
  this->canvas_.display->set_writer([this](display::Display &) { this->draw_(); });
  for (auto *pin : this->wake_pins_)
    pin->setup();
  this->model_.touch(millis());
  this->renderer_.invalidate();
}

void LinnRemote::draw_() {
  if (this->phase_ == Phase::SLEEP)
    return;  // stays blank
  auto drawn = this->renderer_.render(this->model_, this->canvas_, millis());
#if ESPHOME_LOG_LEVEL >= ESPHOME_LOG_LEVEL_VERBOSE
  if (!drawn.empty()) {
    std::string names;
    for (auto id : drawn)
      names += std::string(names.empty() ? "" : ",") + ::linn_model::widget_name(id);
    ESP_LOGV(TAG, "Redrew: %s", names.c_str());
  }
#endif
}

bool LinnRemote::wake_pin_held_() {
  for (auto *pin : this->wake_pins_) {
    if (pin->digital_read())
      return true;
  }
  return false;
}

void LinnRemote::loop() {
  const uint32_t now = millis();
  // Without Home Assistant the player's state is unknown: show "Waiting for HA" rather than a
  // stale screen. HA sends every subscribed state again when it reconnects.
  bool ha = api::global_api_server->is_connected_with_state_subscription();
  if (ha != this->ha_connected_) {
    ESP_LOGD(TAG, "Home Assistant %s", ha ? "connected" : "disconnected");
    this->ha_connected_ = ha;
    if (!ha)
      this->model_.set_state("unknown");
  }
  this->model_.tick(now);
  this->send_actions_();

  Phase ph = this->model_.phase(now);
  if (ph != this->phase_) {
    Phase old = this->phase_;
    this->phase_ = ph;
    switch (ph) {
      case Phase::ACTIVE:
        ESP_LOGD(TAG, "Wake");
        this->sleep_started_ = false;
        if (old == Phase::SLEEP)
          this->renderer_.invalidate();
        for (auto *t : this->wake_triggers_)
          t->trigger();
        break;
      case Phase::DIM:
        ESP_LOGD(TAG, "Dim");
        for (auto *t : this->dim_triggers_)
          t->trigger();
        break;
      case Phase::SLEEP:
        ESP_LOGD(TAG, "Sleep");
        this->renderer_.blank(this->canvas_);
        this->canvas_.display->update();
        for (auto *t : this->sleep_triggers_)
          t->trigger();
        break;
    }
  }
  if (ph == Phase::SLEEP) {
#ifdef USE_LINN_REMOTE_DEEP_SLEEP
    // A wake button still held would wake the chip again at once (ext1 ANY_LOW): wait for release.
    if (this->deep_sleep_ != nullptr && !this->sleep_started_ && !this->wake_pin_held_()) {
      this->sleep_started_ = true;
      ESP_LOGI(TAG, "Entering deep sleep");
      this->deep_sleep_->begin_sleep(true);
    }
#endif
    return;
  }
  // At most one frame per MIN_FRAME_MS: an SSD1306/SH1106 update sends the whole buffer over I2C.
  if (now - this->last_frame_ms_ >= MIN_FRAME_MS && this->renderer_.dirty(this->model_, this->canvas_, now)) {
    this->last_frame_ms_ = now;
    this->canvas_.display->update();
  }
}

void LinnRemote::turn(int steps) {
  this->model_.turn(steps, millis());
  this->send_actions_();
}

void LinnRemote::press(::linn_model::Button button) {
  this->model_.press(button, millis());
  this->send_actions_();
}

void LinnRemote::send_actions_() {
  for (const auto &a : this->model_.take_actions()) {
    std::map<std::string, std::string> data(a.data.begin(), a.data.end());
    std::string desc;
    for (const auto &kv : a.data)
      desc += " " + kv.first + "=" + kv.second;
    ESP_LOGI(TAG, "Action %s:%s", a.action.c_str(), desc.c_str());
    this->call_homeassistant_service(a.action, data);
  }
}

void LinnRemote::dump_config() {
  const auto &c = this->model_.config();
  ESP_LOGCONFIG(TAG,
                "Linn remote:\n"
                "  Entity: %s\n"
                "  Volume step: %d per mille, max %d\n"
                "  Send interval: %u ms\n"
                "  Dim after: %u ms, sleep after: %u ms\n"
                "  Pages: %u, wake pins: %u",
                c.entity_id.c_str(), c.volume_step_pm, c.max_volume_pm, static_cast<unsigned>(c.send_interval_ms),
                static_cast<unsigned>(c.dim_after_ms), static_cast<unsigned>(c.sleep_after_ms),
                static_cast<unsigned>(c.pages.size()), static_cast<unsigned>(this->wake_pins_.size()));
}

}  // namespace esphome::linn_remote
