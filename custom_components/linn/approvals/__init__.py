"""The out-of-band approvals (issue 21).

The flow (flow.py: requests, notifications, answers), the snapshot an admin's card shows
(snapshot.py), its websocket API (websocket_api.py), and the card's registration
(dashboard_card.py) with the card itself in frontend/.
"""
