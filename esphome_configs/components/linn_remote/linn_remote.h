#pragma once
// ESPHome glue for the Linn remote: Home Assistant subscriptions and actions through the native
// API, the display adapter and the input actions. All logic lives in linn_remote_model.h.

#include <string>
#include <vector>

#include "esphome/components/api/custom_api_device.h"
#include "esphome/components/display/display.h"
#include "esphome/components/font/font.h"
#include "esphome/core/automation.h"
#include "esphome/core/component.h"
#include "esphome/core/gpio.h"
#include "esphome/core/string_ref.h"
#ifdef USE_LINN_REMOTE_DEEP_SLEEP
#include "esphome/components/deep_sleep/deep_sleep_component.h"
#endif

#include "linn_remote_model.h"

namespace esphome::linn_remote {

/// Maps the model's Canvas onto an ESPHome display, clipping text to its widget's rectangle.
class DisplayCanvas : public ::linn_model::Canvas {
 public:
  display::Display *display{nullptr};
  font::Font *fonts[3]{nullptr, nullptr, nullptr};

  void fill(const ::linn_model::Rect &r, bool on) override;
  void frame(const ::linn_model::Rect &r) override;
  void triangle(int x1, int y1, int x2, int y2, int x3, int y3) override;
  void text(int x, int y, ::linn_model::Font font, const std::string &s, const ::linn_model::Rect &clip,
            bool inverted) override;
  int text_width(::linn_model::Font font, const std::string &s) override;
};

class LinnRemote : public Component, public api::CustomAPIDevice {
 public:
  void set_entity_id(const char *entity_id) { this->model_.mutable_config().entity_id = entity_id; }
  void set_volume_step(float step) { this->model_.mutable_config().volume_step_pm = static_cast<int>(step * 1000.0f + 0.5f); }
  void set_max_volume(float v) { this->model_.mutable_config().max_volume_pm = static_cast<int>(v * 1000.0f + 0.5f); }
  void set_send_interval(uint32_t ms) { this->model_.mutable_config().send_interval_ms = ms; }
  void set_settle_time(uint32_t ms) { this->model_.mutable_config().settle_ms = ms; }
  void set_dim_after(uint32_t ms) { this->model_.mutable_config().dim_after_ms = ms; }
  void set_sleep_after(uint32_t ms) { this->model_.mutable_config().sleep_after_ms = ms; }
  void set_pages(const std::vector<uint8_t> &pages);
  void set_display(display::Display *d) { this->canvas_.display = d; }
  void set_fonts(font::Font *small, font::Font *large, font::Font *huge) {
    this->canvas_.fonts[0] = small;
    this->canvas_.fonts[1] = large;
    this->canvas_.fonts[2] = huge;
  }
  void add_wake_pin(GPIOPin *pin) { this->wake_pins_.push_back(pin); }
#ifdef USE_LINN_REMOTE_DEEP_SLEEP
  void set_deep_sleep(deep_sleep::DeepSleepComponent *ds) { this->deep_sleep_ = ds; }
#endif
  void add_dim_trigger(Trigger<> *t) { this->dim_triggers_.push_back(t); }
  void add_wake_trigger(Trigger<> *t) { this->wake_triggers_.push_back(t); }
  void add_sleep_trigger(Trigger<> *t) { this->sleep_triggers_.push_back(t); }

  void setup() override;
  void loop() override;
  void dump_config() override;
  float get_setup_priority() const override { return setup_priority::AFTER_CONNECTION; }

  /// Input: encoder detents (positive = clockwise) and button presses.
  void turn(int steps);
  void press(::linn_model::Button button);

  const ::linn_model::Model &model() const { return this->model_; }

 protected:
  void on_state_(StringRef s) { this->model_.set_state(s.str()); }
  void on_title_(StringRef s) { this->model_.set_title(s.str()); }
  void on_artist_(StringRef s) { this->model_.set_artist(s.str()); }
  void on_volume_(StringRef s) { this->model_.set_volume(s.str()); }
  void on_muted_(StringRef s) { this->model_.set_muted(s.str()); }
  void on_source_(StringRef s) { this->model_.set_source(s.str()); }
  void on_source_list_(StringRef s) { this->model_.set_source_list(s.str()); }
  void send_actions_();
  void draw_();
  bool wake_pin_held_();

  ::linn_model::Model model_;
  ::linn_model::Renderer renderer_;
  DisplayCanvas canvas_;
  ::linn_model::Phase phase_{::linn_model::Phase::ACTIVE};
  std::vector<GPIOPin *> wake_pins_;
#ifdef USE_LINN_REMOTE_DEEP_SLEEP
  deep_sleep::DeepSleepComponent *deep_sleep_{nullptr};
#endif
  bool sleep_started_{false};
  bool ha_connected_{false};
  uint32_t last_frame_ms_{0};
  std::vector<Trigger<> *> dim_triggers_;
  std::vector<Trigger<> *> wake_triggers_;
  std::vector<Trigger<> *> sleep_triggers_;
};

template<typename... Ts> class TurnAction : public Action<Ts...>, public Parented<LinnRemote> {
 public:
  TEMPLATABLE_VALUE(int, steps)
  void play(const Ts &...x) override { this->parent_->turn(this->steps_.value(x...)); }
};

template<typename... Ts> class PressAction : public Action<Ts...>, public Parented<LinnRemote> {
 public:
  void set_button(uint8_t b) { this->button_ = static_cast<::linn_model::Button>(b); }
  void play(const Ts &...x) override { this->parent_->press(this->button_); }

 protected:
  ::linn_model::Button button_{::linn_model::Button::PLAY_PAUSE};
};

}  // namespace esphome::linn_remote
